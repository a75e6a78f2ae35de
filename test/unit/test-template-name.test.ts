/**
 * The integration tests' template databases are named after their migrations (decision 047): a run after any
 * change to the migrations folder must build a new template, never copy a stale one.
 */
import { appendFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { migrationsHash } from '../helpers/db-template';

describe('the template database name', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-migrations-'));
    cpSync(path.join(process.cwd(), 'lib', 'db', 'migrations'), folder, { recursive: true });
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('is the same for the same migrations', () => {
    expect(migrationsHash('pglite', folder)).toBe(migrationsHash('pglite'));
  });

  it('changes when a migration changes, one is added, or the journal changes', () => {
    const before = migrationsHash('pglite', folder);
    appendFileSync(path.join(folder, '0000_users.sql'), '\n-- edited\n');
    const edited = migrationsHash('pglite', folder);
    expect(edited).not.toBe(before);
    writeFileSync(path.join(folder, '9999_new.sql'), 'SELECT 1;');
    const added = migrationsHash('pglite', folder);
    expect(added).not.toBe(edited);
    appendFileSync(path.join(folder, 'meta', '_journal.json'), ' ');
    expect(migrationsHash('pglite', folder)).not.toBe(added);
  });

  it('differs between engines and PGlite versions', () => {
    expect(migrationsHash('postgres', folder)).not.toBe(migrationsHash('pglite 0.5.16', folder));
    expect(migrationsHash('pglite 0.5.16', folder)).not.toBe(migrationsHash('pglite 0.5.17', folder));
  });
});
