/**
 * Homes are kept by lint (issue 34): no import circle in lib/ (import/no-cycle, scoped to lib/ in eslint.config.mjs)
 * and no database in pages or route handlers (they call services, which check the caller). The project's real ESLint
 * config runs in a child Node process, as in admin-through-actor-lint.test.ts.
 *
 * A circle needs files on disk: the rule first groups the modules it can read into strongly connected components, so a
 * snippet linted in place of a real file cannot close one. The circle is written to a scratch folder laid out like the
 * project (lib/server/...) and linted there with the project's config, whose patterns are then read from that folder.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Modules written to the scratch lib/server/: `filing` and `notice` need each other; `queue` only needs `mail`'s types. */
const MODULES: Record<string, string> = {
  'filing.ts': "import { sendNotice } from './notice';\nexport const file = () => sendNotice();\n",
  'notice.ts': "import { file } from './filing';\nexport const sendNotice = () => 'sent';\nexport const refile = () => file();\n",
  'queue.ts': "import type { Mail } from './mail';\nexport const queue: Mail[] = [];\n",
  'mail.ts':
    "import { queue } from './queue';\nexport interface Mail { to: string }\nexport const pending = () => queue.length;\n",
};

const CYCLES: { name: string; file: string; found: number }[] = [
  { name: 'refuses a circle of two modules (the importer)', file: 'filing.ts', found: 1 },
  { name: 'refuses a circle of two modules (the imported)', file: 'notice.ts', found: 1 },
  { name: 'lets a type-only import back through (gone at build time)', file: 'mail.ts', found: 0 },
  { name: 'lets the type-only importer through', file: 'queue.ts', found: 0 },
];

const DATABASE: { name: string; filePath: string; code: string; found: number }[] = [
  {
    name: 'refuses the database on a page',
    filePath: 'app/example/page.tsx',
    code: "import { getDb } from '@/lib/db';\nexport const db = getDb;\n",
    found: 1,
  },
  {
    name: 'refuses a query in a route handler',
    filePath: 'app/api/example/route.ts',
    code: "import { sql } from 'drizzle-orm';\nexport const query = sql;\n",
    found: 1,
  },
  {
    name: 'lets a row type on a page through',
    filePath: 'app/example/page.tsx',
    code: "import type { Database } from '@/lib/db';\nexport type Db = Database;\n",
    found: 0,
  },
];

const RUNNER = `
const path = require('node:path');
const { ESLint } = require('eslint');
(async () => {
  const [scratch, cycles, snippets] = process.argv.slice(1).map((arg, i) => (i === 0 ? arg : JSON.parse(arg)));
  const count = (messages, rule) => messages.filter((m) => m.ruleId === rule).length;
  const inScratch = new ESLint({ cwd: scratch, overrideConfigFile: path.join(process.cwd(), 'eslint.config.mjs') });
  const results = await inScratch.lintFiles(cycles.map(({ file }) => path.join('lib/server', file)));
  const byFile = new Map(results.map((result) => [path.basename(result.filePath), count(result.messages, 'import/no-cycle')]));
  const inProject = new ESLint({ cwd: process.cwd() });
  const database = [];
  for (const { filePath, code } of snippets) {
    const [result] = await inProject.lintText(code, { filePath });
    database.push(count(result.messages, 'no-restricted-imports'));
  }
  process.stdout.write(JSON.stringify({ cycles: cycles.map(({ file }) => byFile.get(file)), database }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

describe('lint keeps the homes', () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-homes-lint-'));
  let found: { cycles: number[]; database: number[] };
  beforeAll(() => {
    mkdirSync(path.join(scratch, 'lib/server'), { recursive: true });
    for (const [file, code] of Object.entries(MODULES)) writeFileSync(path.join(scratch, 'lib/server', file), code);
    const args = [scratch, JSON.stringify(CYCLES), JSON.stringify(DATABASE)];
    found = JSON.parse(
      execFileSync(process.execPath, ['-e', RUNNER, ...args], { cwd: process.cwd(), encoding: 'utf8' }),
    ) as typeof found;
  }, 120_000);
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it.each(CYCLES.map((cycle, index) => [cycle.name, cycle.file, index] as const))(
    'import/no-cycle %s: %s',
    (_name, _file, index) => {
      expect(found.cycles[index]).toBe(CYCLES[index]!.found);
    },
  );

  it.each(DATABASE.map((snippet, index) => [snippet.name, index] as const))('no-restricted-imports %s', (_name, index) => {
    expect(found.database[index]).toBe(DATABASE[index]!.found);
  });
});
