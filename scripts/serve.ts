/**
 * The production server: Next's request handler behind the public-page cache
 * (lib/http/page-cache.ts). `npm start` runs this after building.
 *
 * Runs without the react-server condition (Next loads its own React builds),
 * so it imports nothing marked server-only; the configuration was validated
 * by scripts/start.ts and is validated again inside Next (instrumentation.ts).
 */
import { createServer } from 'node:http';

import { open as openGeoDatabase, type CityResponse } from 'maxmind';
import next from 'next';

import { parseEnv } from '../lib/config/schema';
import { stampClientAddress } from '../lib/http/client-address';
import { handleGeo, parseBlockedRegions, type GeoRules } from '../lib/http/geo';
import { declareClientAddressStamping, handOverUpload, isUploadRequest, onAppEvent } from '../lib/events';
import { FILL_HEADER, PageCache } from '../lib/http/page-cache';
import { isPublicPagePath } from '../lib/site';

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

  const cache = new PageCache({
    ttlMs: ttlSeconds * 1000,
    maxBytes: 64 * 1024 * 1024,
    isPublicPath: isPublicPagePath,
    fetchPage: (path) => fetch(`http://127.0.0.1:${port}${path}`, { headers: { [FILL_HEADER]: '1', 'accept-encoding': 'identity' }, redirect: 'manual' }),
  });

  onAppEvent('public-content-changed', (prefix) => cache.purge(prefix));
  declareClientAddressStamping();

  const server = createServer((req, res) => {
    // Before anything reads it: the client's address from the socket and TRUST_PROXY, replacing any copy the client sent.
    stampClientAddress(req, env.TRUST_PROXY);
    // Regional blocking first: a blocked visitor gets the 403 page and nothing from the cache or the app.
    if (handleGeo(req, res, geo, env.SITE_NAME)) return;
    if (cache.handle(req, res)) return;
    if (isUploadRequest(req) && handOverUpload(req, res)) return;
    void handle(req, res);
  });
  server.listen(port, () => {
    const blocked = geo.blocked.size ? [...geo.blocked].join(', ') : 'none';
    console.log(
      `[chrysalis] listening on port ${port} (public page cache: ${ttlSeconds > 0 ? `${ttlSeconds} s` : 'off'}; blocked regions: ${blocked}; trusted proxy hops: ${env.TRUST_PROXY})`,
    );
  });

  const shutdown = () => {
    server.close(() => process.exit(0));
    // Keep-alive connections may hold close() open; do not hang a deploy.
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  console.error('[chrysalis] server failed to start:', error instanceof Error && error.name === 'ConfigError' ? error.message : error);
  process.exit(1);
});
