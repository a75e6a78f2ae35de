/**
 * Admin power is asked of the actor layer only (isAdmin(actor),
 * requireAdmin): the project's real ESLint config refuses code that reads
 * `isAdmin` off a user row anywhere else, as lib/server/trust/performers.ts
 * once did. ESLint runs in a child Node process (its config is an ES module,
 * loaded as the CLI loads it), linting snippets as if they were the named files.
 */
import { execFileSync } from 'node:child_process';

const SNIPPETS: { name: string; filePath: string; code: string }[] = [
  {
    name: 'a member expression in a service',
    filePath: 'lib/server/trust/example.ts',
    code: 'export const canRead = (member: { user: { isAdmin: boolean } }) => member.user.isAdmin;\n',
  },
  {
    name: 'optional chaining on a page',
    filePath: 'app/example/page.tsx',
    code: 'export const canRead = (member: { isAdmin: boolean } | null) => member?.isAdmin;\n',
  },
  {
    name: 'a computed key',
    filePath: 'lib/server/videos/example.ts',
    code: "export const canRead = (user: { isAdmin: boolean }) => user['isAdmin'];\n",
  },
  {
    name: 'destructuring',
    filePath: 'lib/server/admin/example.ts',
    code: 'export const canRead = ({ isAdmin }: { isAdmin: boolean }) => isAdmin;\n',
  },
  {
    name: 'a script',
    filePath: 'scripts/example.ts',
    code: 'export const canRead = (user: { isAdmin: boolean }) => user.isAdmin;\n',
  },
  {
    name: 'the actor layer itself',
    filePath: 'lib/server/auth/actor.ts',
    code: 'export const role = (user: { isAdmin: boolean }) => user.isAdmin;\n',
  },
  {
    name: 'the column in a query',
    filePath: 'lib/server/accounts/example.ts',
    code: 'declare const users: { isAdmin: unknown };\nexport const column = users.isAdmin;\n',
  },
  {
    name: 'a DTO field being written',
    filePath: 'lib/server/accounts/example.ts',
    code: 'export const dto = (role: boolean) => ({ isAdmin: role });\n',
  },
];

const RUNNER = `
const { ESLint } = require('eslint');
(async () => {
  const eslint = new ESLint({ cwd: process.cwd() });
  const out = [];
  for (const { filePath, code } of JSON.parse(process.argv[1])) {
    const [result] = await eslint.lintText(code, { filePath });
    out.push(result.messages.filter((m) => m.ruleId === 'chrysalis/admin-through-actor').length);
  }
  process.stdout.write(JSON.stringify(out));
})().catch((error) => { console.error(error); process.exit(1); });
`;

describe('the admin-through-actor lint rule', () => {
  let found: number[];
  beforeAll(() => {
    found = JSON.parse(
      execFileSync(process.execPath, ['-e', RUNNER, JSON.stringify(SNIPPETS)], { cwd: process.cwd(), encoding: 'utf8' }),
    ) as number[];
  }, 60_000);

  it.each(SNIPPETS.slice(0, 5).map((snippet, index) => [snippet.name, index] as const))(
    'refuses reading isAdmin off a row: %s',
    (_name, index) => {
      expect(found[index]).toBe(1);
    },
  );

  it.each(SNIPPETS.slice(5).map((snippet, index) => [snippet.name, index + 5] as const))('lets through %s', (_name, index) => {
    expect(found[index]).toBe(0);
  });
});
