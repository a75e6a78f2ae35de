import type { Server } from 'node:http';

/**
 * How long a web process keeps an idle keep-alive connection open: longer than
 * anything in front of it keeps one for reuse. nginx keeps idle upstream
 * connections 60 s (`keepalive_timeout`, deploy/nginx.conf), load balancers
 * 60 s too. Node's own 5 s lets the server close a connection at the moment the
 * client sends its next request on it: the client reads ECONNRESET, and nginx
 * answers 502 to a POST it may not retry. With the server waiting longer, the
 * client is always the side that closes an idle connection.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Sets the keep-alive and header timeouts on a web process's HTTP server. */
export function outlastClientKeepAlive(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Above the keep-alive timeout, as Node advises, so a reused connection's next request is never cut by it.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
}
