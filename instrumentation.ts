/**
 * Runs once when the server process starts: validate configuration, then open
 * the database and apply pending migrations, so a bad setting or a locked
 * database stops start-up with a clear message instead of failing on the
 * first request.
 */
let connectionLoss: typeof import('./lib/db/connection-loss') | undefined;

export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  if (process.env.NEXT_PHASE === 'phase-production-build') return;
  // Loaded here, so onRequestError can act before Next writes the failed page's head.
  connectionLoss = await import('./lib/db/connection-loss');
  const { startServer } = await import('./lib/server/startup');
  await startServer();
}

/**
 * A page (or route) whose render failed because the database connection was lost: logged as the outage it is,
 * and marked so the production server answers 503 with Retry-After rather than Next's 500 (lib/db/connection-loss.ts).
 * Synchronous on purpose: Next calls it as the render fails, before it writes the error page's head.
 */
export function onRequestError(error: unknown, request: { method: string; path: string }) {
  if (!connectionLoss?.isDatabaseConnectionLoss(error)) return;
  connectionLoss.markRequestDatabaseUnavailable();
  connectionLoss.reportDatabaseOutage(error, `${request.method} ${request.path}`);
}
