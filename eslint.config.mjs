import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

const NEXT_SEO = { name: 'next-seo', message: 'Use <JsonLd> (components/seo/JsonLd.tsx); next-seo only escapes the exact string </script>.' };
// Pages navigate as documents (decision 030): next/link costs every page about 2.4 KB of first-load JavaScript and
// prefetches every link in view; the page cache answers a document in about a millisecond.
const NEXT_LINK = { name: 'next/link', message: 'Use a plain <a href> (decision 030: pages navigate as documents).' };

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Written for the pages router; with documents as the way to navigate (decision 030), <a href> is the rule.
      '@next/next/no-html-link-for-pages': 'off',
    },
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
      'no-restricted-imports': ['error', { paths: [NEXT_SEO, NEXT_LINK] }],
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
            { name: 'zod', message: "Import { z } from '@/lib/validation/zod': it turns off zod's eval in the browser, which the CSP refuses.", allowTypeImports: true },
            NEXT_SEO,
            NEXT_LINK,
          ],
        },
      ],
    },
  },
  { ignores: ['.next/**', '.bench-floor-app/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts', 'lib/db/migrations/**'] },
];

export default config;
