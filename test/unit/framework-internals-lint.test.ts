/**
 * No code imports Next's or React's private modules or reads React's internals objects (issue 34): the project's real
 * ESLint config refuses them, in static imports (no-restricted-imports patterns, in every block that sets that rule),
 * in require() and import(), and by the internals' names. ESLint runs in a child Node process (its config is an ES
 * module, loaded as the CLI loads it), linting snippets as if they were the named files.
 */
import { execFileSync } from 'node:child_process';

const REFUSED: { name: string; filePath: string; code: string }[] = [
  {
    name: "a client component importing Next's router contexts",
    filePath: 'components/shell/example.tsx',
    code: "import { AppRouterContext } from 'next/dist/shared/lib/app-router-context.shared-runtime';\nexport const c = AppRouterContext;\n",
  },
  {
    name: 'a page importing next/dist',
    filePath: 'app/example/page.tsx',
    code: "import { notFound } from 'next/dist/client/components/not-found';\nexport default function P() { notFound(); }\n",
  },
  {
    name: "a service importing React DOM's build",
    filePath: 'lib/server/example.ts',
    code: "import dom from 'react-dom/cjs/react-dom-client.production.js';\nexport const d = dom;\n",
  },
  {
    name: "a script importing React's build",
    filePath: 'scripts/example.ts',
    code: "import react from 'react/cjs/react.production.js';\nexport const r = react;\n",
  },
  {
    name: 'a dynamic import of next/dist',
    filePath: 'components/videos/example.tsx',
    code: "export const load = () => import('next/dist/shared/lib/hooks-client-context.shared-runtime');\n",
  },
  {
    name: 'a require of next/dist',
    filePath: 'components/videos/example.ts',
    code: "export const ctx = require('next/dist/shared/lib/app-router-context.shared-runtime');\n",
  },
  {
    name: "React's client internals by name",
    filePath: 'components/shell/example.tsx',
    code: "import * as React from 'react';\nexport const internals = (React as unknown as Record<string, unknown>).__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE;\n",
  },
  {
    name: "React's secret internals as a string key",
    filePath: 'lib/client/example.ts',
    code: "import * as React from 'react';\nexport const internals = (React as unknown as Record<string, unknown>)['__SECRET_INTERNALS_DO_NOT_USE_OR_YOU_WILL_BE_FIRED'];\n",
  },
];

const ALLOWED: { name: string; filePath: string; code: string }[] = [
  {
    name: "Next's documented entry points",
    filePath: 'components/shell/example.tsx',
    code: "import dynamic from 'next/dynamic';\nimport { useRouter } from 'next/navigation';\nexport const x = [dynamic, useRouter];\n",
  },
  {
    name: "React DOM's client entry",
    filePath: 'components/shell/example.tsx',
    code: "import { hydrateRoot } from 'react-dom/client';\nexport const h = hydrateRoot;\n",
  },
];

const RUNNER = `
const { ESLint } = require('eslint');
(async () => {
  const eslint = new ESLint({ cwd: process.cwd() });
  const out = [];
  for (const { filePath, code } of JSON.parse(process.argv[1])) {
    const [result] = await eslint.lintText(code, { filePath });
    out.push(result.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'chrysalis/no-framework-internals').length);
  }
  process.stdout.write(JSON.stringify(out));
})().catch((error) => { console.error(error); process.exit(1); });
`;

describe('the framework-internals lint rules', () => {
  const snippets = [...REFUSED, ...ALLOWED];
  let found: number[];
  beforeAll(() => {
    found = JSON.parse(
      execFileSync(process.execPath, ['-e', RUNNER, JSON.stringify(snippets)], { cwd: process.cwd(), encoding: 'utf8' }),
    ) as number[];
  }, 60_000);

  it.each(REFUSED.map((snippet, index) => [snippet.name, index] as const))('refuses %s', (_name, index) => {
    expect(found[index]).toBeGreaterThanOrEqual(1);
  });

  it.each(ALLOWED.map((snippet, index) => [snippet.name, REFUSED.length + index] as const))('lets through %s', (_name, index) => {
    expect(found[index]).toBe(0);
  });
});
