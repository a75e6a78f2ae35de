/**
 * Runs once when the server process starts: validate configuration, then open
 * the database and apply pending migrations, so a bad setting or a locked
 * database stops start-up with a clear message instead of failing on the
 * first request.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  if (process.env.NEXT_PHASE === 'phase-production-build') return;
  const { startServer } = await import('./lib/server/startup');
  await startServer();
}
