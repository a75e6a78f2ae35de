/**
 * Jest globalSetup of the integration projects: the migrated template databases every test file copies
 * (test/helpers/db-template.ts, decision 047), made before any worker starts so that no two build them.
 */
import { ensureTemplates } from './db-template';

export default async function integrationSetup(): Promise<void> {
  const started = Date.now();
  await ensureTemplates();
  process.stderr.write(`integration: template databases ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
