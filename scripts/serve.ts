/**
 * The production server: Next's request handler behind the public-page cache
 * (lib/front/page-cache.ts). `npm start` runs this after building.
 *
 * Runs without the react-server condition (Next loads its own React builds),
 * so it imports nothing marked server-only; the configuration was validated
 * by scripts/start.ts and is validated again inside Next (instrumentation.ts).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import path from 'node:path';

import { open as openGeoDatabase, type CityResponse } from 'maxmind';
import next from 'next';

import { parseEnv } from '../lib/config/schema';
import { stampClientAddress } from '../lib/front/resolve-client-address';
import { blockedAnswer, handleGeo, parseBlockedRegions, type GeoRules } from '../lib/front/geo';
import { outlastClientKeepAlive } from '../lib/front/keep-alive';
import { listenWithReceiver, UploadReceiver } from '../lib/front/upload-receiver';
import type { ReceivedUpload } from '../lib/front/upload-receiver/protocol';
import { declareClientAddressStamping, handOverReceivedUpload, handOverUpload, isUploadRequest, onAppEvent } from '../lib/events';
import { nonceSource } from '../lib/front/content-security-policy';
import { FILL_HEADER, PageCache } from '../lib/front/page-cache';
import { presignedMediaOrigin } from '../lib/front/media-origin';
import { hashPolicy } from '../lib/front/page-policy';
import { isPublicPagePath } from '../lib/site';
import { routeLabellerFromBuild } from '../lib/front/route-label';
import { logContext, logger } from '../lib/server/log';
import {
  observeReceivedRequest,
  observeRequest,
  ObservedResponse,
  REQUEST_ID_HEADER,
  type RequestContext,
} from '../lib/server/log/requests';
import { answerMetrics, isMetricsRequest, metrics, startMetricsServer } from '../lib/server/metrics';

const log = logger('server');

/** Before the app has registered its upload handler (it does so as it starts). */
const STARTING_ANSWER = {
  status: 503,
  headers: [
    ['content-type', 'application/json'],
    ['retry-after', '5'],
  ] as [string, string][],
  body: Buffer.from(JSON.stringify({ message: 'The server is starting. Try again in a moment.' })),
};

async function main() {
  const env = parseEnv(process.env);
  const { PORT: port, PUBLIC_PAGE_CACHE_SECONDS: ttlSeconds } = env;
  const geo: GeoRules = {
    trustProxy: env.TRUST_PROXY,
    blocked: parseBlockedRegions(env.GEO_BLOCKED_REGIONS),
    countryHeader: env.GEO_COUNTRY_HEADER,
    regionHeader: env.GEO_REGION_HEADER,
    reader: env.GEOIP_DB ? await openGeoDatabase<CityResponse>(env.GEOIP_DB) : undefined,
  };
  const app = next({ dev: false, port });
  const handle = app.getRequestHandler();
  await app.prepare();

  // Only the cache's own fetches carry FILL_HEADER with this value; the header is dropped from any other request.
  const fillToken = randomBytes(16).toString('hex');
  const cache = new PageCache({
    ttlMs: ttlSeconds * 1000,
    maxBytes: 64 * 1024 * 1024,
    isPublicPath: isPublicPagePath,
    fetchPage: (path, renderNonce) =>
      fetch(`http://127.0.0.1:${port}${path}`, {
        // Next takes the nonce to write on its scripts from the request's policy (proxy.ts leaves fills alone).
        headers: {
          [FILL_HEADER]: fillToken,
          'accept-encoding': 'identity',
          'content-security-policy': `script-src ${nonceSource(renderNonce)}`,
        },
        redirect: 'manual',
      }),
    // Public pages are answered only through the cache, with their inline scripts allowed by hash.
    policyFor: (html, renderNonce, path) =>
      hashPolicy(
        html,
        renderNonce,
        { dev: false, apiBaseUrl: env.NEXT_PUBLIC_API_BASE_URL, mediaOrigin: presignedMediaOrigin(env) },
        (scripts) =>
          log.warn(
            { path, scripts: scripts.map((text) => text.slice(0, 80)) },
            `${scripts.length} inline script(s) of an unknown shape stay blocked by the page's CSP`,
          ),
      ),
    onAnswer: (result) => {
      metrics().pageCache.inc({ result: result.toLowerCase() });
      const context = logContext() as RequestContext | undefined;
      if (context) context.cache = result;
    },
  });

  onAppEvent('public-content-changed', (prefix) => cache.purge(prefix));
  declareClientAddressStamping();

  // Requests are counted by route (ids collapsed), from the build's route list.
  const observe = {
    trustProxy: env.TRUST_PROXY,
    routeOf: routeLabellerFromBuild(),
    isInternal: (req: IncomingMessage) => req.headers[FILL_HEADER] === fillToken,
  };
  const server = createServer({ ServerResponse: ObservedResponse }, (req, res) =>
    observeRequest(req, res, observe, () => {
      // Before anything reads it: the client's address from the socket and TRUST_PROXY, replacing any copy the client sent.
      stampClientAddress(req, env.TRUST_PROXY);
      // With METRICS_TOKEN, /metrics is answered here to whoever sends the token; without it, Next's 404.
      if (env.METRICS_TOKEN && isMetricsRequest(req)) return void answerMetrics(req, res, env.METRICS_TOKEN);
      // A visitor sending it would get a page Next rendered without a nonce (proxy.ts).
      if (req.headers[FILL_HEADER] !== fillToken) delete req.headers[FILL_HEADER];
      // Regional blocking first: a blocked visitor gets the 403 page and nothing from the cache or the app.
      if (handleGeo(req, res, geo, env.SITE_NAME)) return;
      if (cache.handle(req, res)) return;
      if (isUploadRequest(req) && handOverUpload(req, res)) return;
      void handle(req, res);
    }),
  );
  outlastClientKeepAlive(server);
  // Upload PATCHes that open a connection go to the upload receiver process, which writes their bodies off this heap (decision 026).
  const receiver = new UploadReceiver({
    entry: path.join(process.cwd(), 'scripts', 'upload-receiver.ts'),
    onProblem: (message) => log.warn(message),
    onRequest: (held, finished) =>
      observeReceivedRequest(held, finished, observe, (context) => {
        const upload: ReceivedUpload = {
          ...held,
          answer: (answer) => held.answer({ ...answer, headers: [...answer.headers, [REQUEST_ID_HEADER, context.requestId]] }),
        };
        stampClientAddress(upload, env.TRUST_PROXY);
        const blocked = blockedAnswer(upload, geo, env.SITE_NAME);
        if (blocked)
          return upload.answer({
            status: blocked.status,
            headers: Object.entries(blocked.headers),
            body: Buffer.from(blocked.body),
          });
        if (!handOverReceivedUpload(upload)) upload.answer(STARTING_ANSWER);
      }),
  });
  receiver.start();
  const front = listenWithReceiver(server, receiver);
  front.listen(port, () => {
    const blocked = geo.blocked.size ? [...geo.blocked].join(', ') : 'none';
    log.info(
      { port, pageCacheSeconds: ttlSeconds, blockedRegions: blocked, trustProxy: env.TRUST_PROXY },
      `listening on port ${port} (public page cache: ${ttlSeconds > 0 ? `${ttlSeconds} s` : 'off'}; blocked regions: ${blocked}; trusted proxy hops: ${env.TRUST_PROXY})`,
    );
    // The one line a person starting the site looks for: the address to open on this machine.
    log.info(`${env.SITE_NAME} is ready: http://localhost:${port}`);
  });
  // METRICS_PORT: /metrics on a server of its own (loopback unless METRICS_HOST says otherwise).
  const metricsServer = env.METRICS_PORT
    ? await startMetricsServer(env.METRICS_PORT, env.METRICS_HOST, env.METRICS_TOKEN)
    : undefined;
  if (metricsServer)
    log.info(
      { metricsPort: env.METRICS_PORT, metricsHost: env.METRICS_HOST },
      `metrics on http://${env.METRICS_HOST}:${env.METRICS_PORT}/metrics`,
    );

  const shutdown = () => {
    metricsServer?.close();
    receiver.stop();
    server.closeIdleConnections();
    front.close(() => process.exit(0));
    // Keep-alive connections may hold close() open; do not hang a deploy.
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  if (error instanceof Error && error.name === 'ConfigError') log.fatal(`server failed to start: ${error.message}`);
  else log.fatal({ err: error }, 'server failed to start');
  process.exit(1);
});
