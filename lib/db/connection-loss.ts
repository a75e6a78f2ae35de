/**
 * Telling a lost or refused database connection from every other failure. A restart, a failover or an
 * administrator ending sessions makes queries fail for a moment with these: they are the database's
 * outage, not a bug, so requests answer 503 with Retry-After and processes go on (docs/operations.md).
 *
 * Plain Node (no server-only marker): instrumentation.ts and scripts/serve.ts import it too.
 */
import { logContext, logger } from '../server/log';

/** SQLSTATEs of a server going away or not taking connections yet; class 08 (connection exception) is matched whole. */
const LOST_STATES = new Set([
  '57P01', // admin_shutdown: the server is stopping, or pg_terminate_backend()
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '53300', // too_many_connections
]);

/** Socket errors of a connection that failed or was cut. */
const LOST_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** node-postgres and pg-pool's own messages for a connection that died or could not be had in time. */
const LOST_MESSAGES = [
  /^Connection terminated/, // "… unexpectedly", "… due to connection timeout"
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
];

/**
 * True when the error, or one it wraps (Drizzle's DrizzleQueryError keeps the driver's error as its cause; a refused
 * connection to a host with several addresses is an AggregateError), says the database connection was lost or refused.
 */
export function isDatabaseConnectionLoss(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && (LOST_STATES.has(code) || LOST_ERRNOS.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (typeof message === 'string' && LOST_MESSAGES.some((pattern) => pattern.test(message))) return true;
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseConnectionLoss(inner, depth + 1))) return true;
  return isDatabaseConnectionLoss(cause, depth + 1);
}

/** How long a client is told to wait before trying again: a restart or a failover takes about this long. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
export const DATABASE_UNAVAILABLE_MESSAGE = 'The site cannot reach its database right now. Please try again in a few seconds.';

const log = logger('db');
/** One line per this many milliseconds: a one-second outage fails hundreds of requests, and one line tells the operator as much. */
const REPORT_EVERY_MS = 10_000;
let lastReportedAt = -Infinity;
let unreported = 0;

/**
 * Logs a lost or refused database connection as a warning, at most once every ten seconds per process, counting
 * the failures each line stands for. It is an outage to watch, not a bug to fix: the process goes on, and the
 * pool connects again as soon as the server takes connections.
 */
export function reportDatabaseOutage(error: unknown, where: string): void {
  unreported += 1;
  const now = performance.now();
  if (now - lastReportedAt < REPORT_EVERY_MS) return;
  log.warn(
    { err: error, failures: unreported },
    `the database connection was lost or refused (${where}; ${unreported} failure(s) since the last report); requests answer 503 and jobs wait until it is back`,
  );
  lastReportedAt = now;
  unreported = 0;
}

/**
 * Marks the request being answered as failed by a lost database connection, for a page whose render failed:
 * Next answers those 500, and the production server sends it as 503 with Retry-After instead (ObservedResponse).
 */
export function markRequestDatabaseUnavailable(): void {
  const context = logContext();
  if (context?.requestId) context.databaseUnavailable = true;
}
