import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

const NEXT_SEO = {
  name: 'next-seo',
  message: 'Use <JsonLd> (components/seo/JsonLd.tsx); next-seo only escapes the exact string </script>.',
};
// Pages navigate as documents (decision 030): next/link costs every page about 2.4 KB of first-load JavaScript and
// prefetches every link in view; the page cache answers a document in about a millisecond.
const NEXT_LINK = { name: 'next/link', message: 'Use a plain <a href> (decision 030: pages navigate as documents).' };

/**
 * Admin power has one source of truth, the actor layer (lib/server/auth/actor.ts): isAdmin(actor) and requireAdmin count
 * only a session that passed the second factor (decision 018). Reading `isAdmin` off a user row anywhere else is how a
 * password-only admin session once read every video's performer records, so it is refused here; the role, where it is
 * what is meant (two-factor owed, last admin, the UI), is hasAdminRole(user) from the same file.
 */
const adminThroughActor = {
  meta: {
    type: 'problem',
    messages: {
      direct:
        'Ask the actor layer: isAdmin(actor) or requireAdmin(actor) for admin power, hasAdminRole(user) for the role (lib/server/auth/actor.ts).',
    },
  },
  create(context) {
    const named = (node) =>
      (node.type === 'Identifier' && node.name === 'isAdmin') || (node.type === 'Literal' && node.value === 'isAdmin');
    return {
      MemberExpression(node) {
        // users.isAdmin is the column in a query (which admins exist), not a caller's power.
        if (named(node.property) && !(node.object.type === 'Identifier' && node.object.name === 'users'))
          context.report({ node, messageId: 'direct' });
      },
      'ObjectPattern > Property'(node) {
        if (named(node.key)) context.report({ node, messageId: 'direct' });
      },
    };
  },
};

/**
 * Next's and React's private modules and objects (issue 34): what an app may use is their documented entry points
 * (`next/navigation`, `next/dynamic`, `react`, `react-dom/client`…). A private module moves or changes shape in a
 * minor release (decision 031's router contexts came from `next/dist/shared/lib`; decision 037 read React's id
 * spelling), so they are refused everywhere, in static imports (no-restricted-imports) and in `require()` and
 * `import()` (the rule below), as are React's internals objects by name.
 */
const FRAMEWORK_INTERNALS = {
  group: [
    'next/dist',
    'next/dist/**',
    'react/cjs/**',
    'react-dom/cjs/**',
    'react/src/**',
    'react-dom/src/**',
    'react-server-dom-*/**',
    'scheduler/cjs/**',
  ],
  message: "Next's and React's private modules change without notice: use their documented entry points (issue 34).",
};
const INTERNAL_SOURCE = /^(next\/dist(\/|$)|(react|react-dom|scheduler)\/(cjs|src)\/|react-server-dom-)/;
const INTERNAL_NAME = /^__(SECRET|CLIENT|SERVER)_INTERNALS/;

const noFrameworkInternals = {
  meta: {
    type: 'problem',
    messages: {
      source: "Next's and React's private modules change without notice: use their documented entry points (issue 34).",
      name: "React's internals objects are not an API: use React's documented hooks and components (issue 34).",
    },
  },
  create(context) {
    const checkSource = (node) => {
      if (node && node.type === 'Literal' && typeof node.value === 'string' && INTERNAL_SOURCE.test(node.value))
        context.report({ node, messageId: 'source' });
    };
    const checkName = (node, name) => {
      if (typeof name === 'string' && INTERNAL_NAME.test(name)) context.report({ node, messageId: 'name' });
    };
    return {
      ImportExpression: (node) => checkSource(node.source),
      'CallExpression[callee.name="require"]': (node) => checkSource(node.arguments[0]),
      ExportNamedDeclaration: (node) => checkSource(node.source),
      ExportAllDeclaration: (node) => checkSource(node.source),
      Identifier: (node) => checkName(node, node.name),
      Literal: (node) => checkName(node, node.value),
    };
  },
};

const chrysalis = { rules: { 'admin-through-actor': adminThroughActor, 'no-framework-internals': noFrameworkInternals } };

/**
 * Pages and route handlers call services (lib/server/<domain>), which check the caller and are the only code that
 * touches the database; browser code cannot reach it at all. Type imports (a row type in a prop) are allowed.
 */
const DATABASE = [
  {
    name: '@/lib/db',
    message: 'Call a service in lib/server/<domain>: it checks the caller (lib/server/auth/actor.ts) and owns its queries.',
    allowTypeImports: true,
  },
  { name: 'drizzle-orm', message: 'Queries live in lib/server/<domain>; call a service from here.', allowTypeImports: true },
];

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Written for the pages router; with documents as the way to navigate (decision 030), <a href> is the rule.
      '@next/next/no-html-link-for-pages': 'off',
      // Overridden below for .tsx and browser code, with these patterns repeated (a later block replaces the rule's options).
      'no-restricted-imports': ['error', { patterns: [FRAMEWORK_INTERNALS] }],
      'chrysalis/no-framework-internals': 'error',
    },
    plugins: { chrysalis },
  },
  {
    // JSON-LD is rendered only by components/seo/JsonLd.tsx, whose jsonLdText escapes what members wrote.
    files: ['**/*.tsx'],
    ignores: ['components/seo/JsonLd.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='type'][value.value='application/ld+json']",
          message: 'Render JSON-LD with <JsonLd> (components/seo/JsonLd.tsx): it escapes text that could end the script element.',
        },
      ],
      'no-restricted-imports': ['error', { paths: [NEXT_SEO, NEXT_LINK], patterns: [FRAMEWORK_INTERNALS] }],
    },
  },
  {
    // Code that can reach the browser takes zod from lib/validation/zod.ts, which keeps it from eval (our CSP refuses it).
    files: ['components/**', 'app/**/*.tsx', 'lib/validation/**', 'lib/client/**'],
    ignores: ['lib/validation/zod.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'zod',
              message: "Import { z } from '@/lib/validation/zod': it turns off zod's eval in the browser, which the CSP refuses.",
              allowTypeImports: true,
            },
            NEXT_SEO,
            NEXT_LINK,
            ...DATABASE,
          ],
          patterns: [FRAMEWORK_INTERNALS],
        },
      ],
    },
  },
  {
    // Route handlers (the .tsx pages are covered above, with the rest of what they may not import).
    files: ['app/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: DATABASE, patterns: [FRAMEWORK_INTERNALS] }] },
  },
  {
    // No import circle in lib/ (issue 34): a circle is two modules that each need the other, so neither is a home. The
    // check is import/no-cycle from eslint-plugin-import, which eslint-config-next already loads with its TypeScript
    // resolver (docs/dependencies.md); scoped to lib/, where the domains are, since following every import costs time.
    // Type-only imports are not counted: they vanish at build time.
    files: ['lib/**'],
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['lib/**', 'app/**', 'components/**', 'scripts/**', 'proxy.ts'],
    ignores: [
      'lib/server/auth/actor.ts',
      // Browser code and pages showing the role a DTO reports (admin link, badges, which buttons to draw); the server decides.
      'app/admin/members/[[]id]/page.tsx',
      'components/admin/AdminFooterLink.tsx',
      'components/admin/MemberBadges.tsx',
      'components/community/CommentThread.tsx',
      'components/videos/VideoManage.tsx',
      'components/videos/VideoPageManage.tsx',
    ],
    rules: { 'chrysalis/admin-through-actor': 'error' },
  },
  {
    ignores: [
      '.next/**',
      '.bench-floor-app/**',
      'node_modules/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'next-env.d.ts',
      'lib/db/migrations/**',
    ],
  },
];

export default config;
