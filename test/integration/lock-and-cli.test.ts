import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { DatabaseLockedError, openDatabase } from '@/lib/db/open';

import { copyPgliteTemplate } from '../helpers/db';

const tsx = path.join(process.cwd(), 'node_modules', '.bin', 'tsx');

/** Runs one of our npm scripts' entry points the way npm does, with a controlled environment. */
function runScript(script: string, env: Record<string, string>) {
  const result = spawnSync(tsx, ['--conditions=react-server', script], {
    env: {
      PATH: `${path.join(process.cwd(), 'node_modules', '.bin')}:${process.env.PATH}`,
      HOME: os.tmpdir(),
      NODE_ENV: 'test',
      ...env,
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('the embedded database lock', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-lock-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('gives a second opener a clear error instead of a second writer', async () => {
    copyPgliteTemplate(dataDir);
    const first = await openDatabase({ dataDir });
    try {
      const second = openDatabase({ dataDir });
      await expect(second).rejects.toBeInstanceOf(DatabaseLockedError);
      await expect(second).rejects.toThrow(/already open in another process/);
    } finally {
      await first.close();
    }
    // Released on close: the next opener succeeds.
    const again = await openDatabase({ dataDir });
    await again.close();
  });

  it('stops npm run db:migrate in another process while the database is open', async () => {
    copyPgliteTemplate(dataDir);
    const holder = await openDatabase({ dataDir });
    try {
      const run = runScript('scripts/db-migrate.ts', { DATA_DIR: dataDir });
      expect(run.status).toBe(1);
      expect(run.output).toMatch(/already open in another process/);
      expect(run.output).not.toMatch(/at .*\.ts:\d+/); // a message, not a stack trace
    } finally {
      await holder.close();
    }
  });

  it('lets npm run db:migrate migrate a fresh directory', () => {
    const run = runScript('scripts/db-migrate.ts', { DATA_DIR: dataDir });
    expect(run.output).toMatch(/Migrations applied to the embedded database/);
    expect(run.status).toBe(0);
  });
});

describe('start-up with bad configuration', () => {
  it.each([
    ['PORT', 'abc'],
    ['SITE_URL', 'localhost:3000'],
    ['DATABASE_URL', 'mysql://x'],
  ])('npm start stops and names %s', (variable, value) => {
    const run = runScript('scripts/start.ts', { [variable]: value });
    expect(run.status).toBe(1);
    expect(run.output).toContain(`${variable} must`);
    expect(run.output).not.toMatch(/next build/);
  });
});
