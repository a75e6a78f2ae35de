import { spawnSync } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import path from 'node:path';

import fc from 'fast-check';

import { routeLabeller } from '@/lib/front/route-label';
import { createLogger, readableDestination, runWithLogContext, scrubPath, scrubText, setLogSink } from '@/lib/server/log';
import { observeRequest, ObservedResponse, requestIdFor, requestLogger, type RequestLine } from '@/lib/server/log/requests';
import { setPageStatus } from '@/lib/server/page-status';
import { bearerMatches } from '@/lib/server/metrics';

/** A logger writing into an array of parsed records. */
function capture(level = 'info') {
  const lines: string[] = [];
  const logger = createLogger({ level, json: true, destination: { write: (line: string) => void lines.push(line) } });
  return { logger, lines, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

/**
 * Runs a script as a process of its own with NODE_ENV=production (JSON lines on stdout, as `npm start`
 * writes them), `log` and `requests` standing for lib/server/log and its request line; returns what it printed.
 */
function runInProduction(script: string, logLevel = 'info') {
  const log = path.join(process.cwd(), 'lib/server/log/index.ts');
  const requests = path.join(process.cwd(), 'lib/server/log/requests.ts');
  const tsx = path.join(process.cwd(), 'node_modules/.bin/tsx');
  const source = `import * as log from ${JSON.stringify(log)};\nimport * as requests from ${JSON.stringify(requests)};\n${script}`;
  const result = spawnSync(tsx, ['--eval', source], {
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: logLevel },
  });
  return {
    ...result,
    records: result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('request paths in logs', () => {
  it.each([
    ['/api/auth/verify-email?token=abc123secret', '/api/auth/verify-email?token=[redacted]'],
    ['/reset-password?token=Zx9-_secret&next=/', '/reset-password?token=[redacted]&next=[redacted]'],
    [
      '/api/payments/verotel/postback?saleID=1&signature=deadbeef&email=a%40b.example',
      '/api/payments/verotel/postback?saleID=[redacted]&signature=[redacted]&email=[redacted]',
    ],
    ['/search?q=my+secret+words&sort=views', '/search?q=[redacted]&sort=views'],
    ['/category/Sissy?sort=views&duration=short&page=2', '/category/Sissy?sort=views&duration=short&page=2'],
    ['/api/login?password=hunter22&code=123456&key=k', '/api/login?password=[redacted]&code=[redacted]&key=[redacted]'],
    ['/video/abc?sort=someone@example.org', '/video/abc?sort=[redacted]'],
    ['/profile/alice', '/profile/alice'],
    ['/x/someone@example.org', '/x/[email]'],
  ])('%s is logged as %s', (url, logged) => {
    expect(scrubPath(url)).toBe(logged);
  });

  it('keeps no query value it does not know, however it is spelled', () => {
    for (const key of [
      'token',
      'TOKEN',
      'access_token',
      'code',
      'signature',
      'sig',
      'password',
      'email',
      'key',
      'apiKey',
      'challenge',
      'q',
    ]) {
      expect(scrubPath(`/p?${key}=s3cr3t-value`)).not.toContain('s3cr3t');
    }
  });
});

describe('redaction', () => {
  it('blanks authorization, cookies, passwords, tokens and emails wherever a record carries them', () => {
    const { logger, lines } = capture();
    logger.info(
      {
        headers: {
          authorization: 'Bearer Fe26.2**sealed-token',
          cookie: 'chrysalis_session=Fe26.2**cookie',
          'set-cookie': 'chrysalis_session=Fe26.2**new',
        },
        req: { headers: { authorization: 'Bearer abc.def', cookie: 'sid=1' } },
        res: { headers: { 'set-cookie': 'sid=2' } },
        password: 'hunter2-hunter2',
        token: 'tok-123456',
        email: 'someone@example.org',
        user: { email: 'member@example.org', password: 'pw-123456', token: 'tok-abcdef' },
        body: { user: { password: 'deep-password' } },
      },
      'with secrets',
    );
    const text = lines.join('');
    for (const secret of ['Fe26.2', 'abc.def', 'hunter2', 'tok-', 'someone@', 'member@', 'pw-123456', 'deep-password', 'sid='])
      expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
  });

  it('scrubs emails and bearer tokens from messages and errors', () => {
    const { logger, records } = capture();
    logger.error(
      { err: new Error('could not send to member@example.org with Bearer abc.def.ghi') },
      'mail to other@example.org failed',
    );
    const [record] = records();
    const text = JSON.stringify(record);
    expect(text).not.toMatch(/member@|other@|abc\.def/);
    expect(record!.msg).toBe('mail to [email] failed');
    expect(scrubText('Authorization: Bearer x.y.z')).toBe('Authorization: Bearer [redacted]');
  });

  it('puts the request (or job) context on every record written inside it', async () => {
    const { logger, records } = capture();
    await runWithLogContext({ requestId: 'req-1', memberId: 'member-1' }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger.info('deep inside');
    });
    await runWithLogContext({ jobId: 'job-1', jobType: 'process-video' }, async () => logger.warn('in a job'));
    logger.info('outside');
    const [inside, job, outside] = records();
    expect(inside).toMatchObject({ requestId: 'req-1', msg: 'deep inside', level: 30 });
    // The member is for the request line only.
    expect(inside).not.toHaveProperty('memberId');
    expect(job).toMatchObject({ jobId: 'job-1', jobType: 'process-video', level: 40 });
    expect(outside).not.toHaveProperty('requestId');
  });

  it('honours the level', () => {
    const { logger, lines } = capture('warn');
    logger.info('quiet');
    logger.warn('loud');
    expect(lines).toHaveLength(1);
  });

  it('writes a readable line in development', () => {
    const out: string[] = [];
    const logger = createLogger({ level: 'info', json: false, destination: readableDestination((text) => out.push(text)) });
    runWithLogContext({ requestId: 'abcdef12-3456' }, () => logger.info({ status: 200, password: 'nope-nope' }, 'request'));
    expect(out[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO  \[abcdef12\] request status=200 password=\[redacted\]\n$/);
  });
});

describe('request ids', () => {
  it('takes a valid X-Request-Id only from a trusted proxy', () => {
    const headers = { 'x-request-id': 'edge-4711' };
    expect(requestIdFor({ headers }, 1)).toBe('edge-4711');
    expect(requestIdFor({ headers }, 0)).not.toBe('edge-4711');
    expect(requestIdFor({ headers: { 'x-request-id': 'bad id "quoted"' } }, 1)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdFor({ headers: { 'x-request-id': 'x'.repeat(129) } }, 1)).toHaveLength(36);
  });
});

describe('the request line', () => {
  let server: Server;
  const lines: string[] = [];
  const routeOf = routeLabeller(['/video/[streamVideoId]']);

  beforeAll(async () => {
    // The process's logger, pointed at this test's capture.
    setLogSink({ write: (line: string) => void lines.push(line) });
    server = createServer({ ServerResponse: ObservedResponse }, (req, res) =>
      observeRequest(req, res, { trustProxy: 0, routeOf }, (context) => {
        context.memberId = 'member-42';
        // As scripts/serve.ts notes how the page cache answered.
        if (req.url === '/') context.cache = 'HIT';
        // The ways a handler writes its head; the request id must be on every one.
        // Never answered: the client gives up first.
        if (req.url === '/hang') return;
        if (req.url === '/head-list') return void res.writeHead(200, ['content-type', 'text/plain', 'x-kept', 'yes']).end('ok');
        if (req.url === '/head-reason-list') return void res.writeHead(200, 'Fine', ['x-kept', 'yes']).end('ok');
        if (req.url === '/head-object') return void res.writeHead(200, { 'x-kept': 'yes' }).end('ok');
        if (req.url === '/set-then-list') return void res.setHeader('x-kept', 'yes').writeHead(304, ['etag', '"e"']).end();
        // A page that rendered its own 404 or 410 (MissingPage): Next answers 200, the mark gives the status.
        if (req.url === '/gone-page' || req.url === '/missing-page') {
          setPageStatus(req.url === '/gone-page' ? 410 : 404);
          res.statusCode = 200;
          return void res.end('<html lang="en">…</html>');
        }
        if (req.url === '/missing-then-error') {
          setPageStatus(404);
          res.statusCode = 500;
          return void res.end('boom');
        }
        if (req.url === '/streamed') {
          res.setHeader('x-kept', 'yes');
          res.write('o');
          return void res.end('k');
        }
        res.statusCode = req.url!.startsWith('/boom') ? 500 : 200;
        res.end('ok');
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    setLogSink(undefined);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; requestId: string }> {
    return new Promise((resolve, reject) => {
      const { port } = server.address() as AddressInfo;
      httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, requestId: String(res.headers['x-request-id']) }));
      })
        .on('error', reject)
        .end();
    });
  }

  it('logs method, scrubbed path, route, status, duration, request id and member; sends the id back', async () => {
    const answer = await get('/video/abc123?token=secret-value', {
      authorization: 'Bearer should-not-appear',
      cookie: 'chrysalis_session=nope',
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const record = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    expect(record).toMatchObject({
      msg: 'request',
      method: 'GET',
      path: '/video/abc123?token=[redacted]',
      route: '/video/:streamVideoId',
      status: 200,
      requestId: answer.requestId,
      memberId: 'member-42',
      level: 30,
    });
    expect(typeof record.durationMs).toBe('number');
    expect(lines.join('')).not.toMatch(/secret-value|should-not-appear|chrysalis_session/);
    // An untrusted client's id is not taken (TRUST_PROXY=0 here).
    const other = await get('/boom', { 'x-request-id': 'client-chosen' });
    expect(other.requestId).not.toBe('client-chosen');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ status: 500, level: 50, route: 'other', requestId: other.requestId });
  });

  it.each(['/head-list', '/head-reason-list', '/head-object', '/set-then-list', '/streamed'])(
    'sends the request id, and the handler’s own headers, when the head is written as %s does',
    async (path) => {
      const answer = await new Promise<{ requestId: unknown; kept: unknown; count: number }>((resolve, reject) => {
        const { port } = server.address() as AddressInfo;
        httpRequest({ host: '127.0.0.1', port, path }, (res) => {
          res.resume();
          const ids = res.rawHeaders.filter((_, i) => i % 2 === 0 && res.rawHeaders[i]!.toLowerCase() === 'x-request-id');
          res.on('end', () =>
            resolve({ requestId: res.headers['x-request-id'], kept: res.headers['x-kept'], count: ids.length }),
          );
        })
          .on('error', reject)
          .end();
      });
      expect(answer.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(answer.count).toBe(1);
      expect(answer.kept).toBe('yes');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toContainEqual(
        expect.objectContaining({ msg: 'request', path, requestId: answer.requestId }),
      );
    },
  );

  it('sends the 200 of a page marked by setPageStatus with that status, and nothing else changed', async () => {
    expect((await get('/missing-page')).status).toBe(404);
    expect((await get('/gone-page')).status).toBe(410);
    expect((await get('/missing-then-error')).status).toBe(500);
    expect((await get('/head-list')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines.some((line) => /"path":"\/gone-page".*"status":410/.test(line))).toBe(true);
  });

  it('writes one line, marked aborted, when the client goes away before the answer', async () => {
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write('GET /hang HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const hung = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((record) => record.path === '/hang');
    expect(hung).toEqual([expect.objectContaining({ msg: 'request', aborted: true, route: 'other' })]);
  });

  it('writes exactly one line per answered request', async () => {
    const before = lines.length;
    await Promise.all(['/once-1', '/once-2', '/once-3'].map((path) => get(path)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const written = lines.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(written.map((record) => record.path).sort()).toEqual(['/once-1', '/once-2', '/once-3']);
    for (const record of written) expect(record).not.toHaveProperty('aborted');
  });

  it('honours LOG_LEVEL: at warn, only answers of 500 and above are written', () => {
    // LOG_LEVEL is read as the process starts, so a process of its own.
    const { records, status, stderr } = runInProduction(
      `
      import * as http from 'node:http';
      const server = http.createServer({ ServerResponse: requests.ObservedResponse }, (req, res) =>
        requests.observeRequest(req, res, { trustProxy: 0, routeOf: () => 'other' }, () => {
          res.statusCode = req.url === '/boom-quiet' ? 500 : 200;
          res.end('ok');
        }),
      );
      server.listen(0, '127.0.0.1', async () => {
        for (const path of ['/quiet', '/boom-quiet']) {
          await new Promise((resolve) => http.get({ host: '127.0.0.1', port: server.address().port, path }, (res) => res.resume().on('end', resolve)));
        }
        setTimeout(() => process.exit(0), 20);
      });
    `,
      'warn',
    );
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(records).toEqual([expect.objectContaining({ msg: 'request', path: '/boom-quiet', status: 500, level: 50 })]);
  });

  it('writes a line for every page-cache answer, saying how the cache answered', async () => {
    const hits = [await get('/'), await get('/')];
    await new Promise((resolve) => setTimeout(resolve, 20));
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const hit of hits)
      expect(records).toContainEqual(
        expect.objectContaining({ msg: 'request', path: '/', cache: 'HIT', status: 200, requestId: hit.requestId }),
      );
  });
});

describe("the request line's record", () => {
  const lines: string[] = [];
  beforeAll(() => setLogSink({ write: (line: string) => void lines.push(line) }));
  afterAll(() => setLogSink(undefined));
  const written = () => JSON.parse(lines.at(-1)!) as Record<string, unknown>;

  // What the server gives it, and (were a caller ever to pass one) anything else: it must still be JSON.
  const anyText = fc.string({ unit: 'binary', maxLength: 40 });
  const requestId = fc.oneof(fc.uuid(), fc.stringMatching(/^[A-Za-z0-9._:+/=-]{1,128}$/), anyText);
  const line: fc.Arbitrary<RequestLine> = fc.record(
    {
      requestId,
      method: fc.oneof(fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'M-SEARCH'), anyText),
      // Whatever reaches it: quotes, backslashes, NUL and other controls, </script >, lone surrogates, emoji.
      path: fc.oneof(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.constantFrom('/a"b\\c', '/\u0000\u001f\u2028', '</script >', '/\ud800', '🏳️‍⚧️'.repeat(2000)),
      ),
      route: fc.string({ unit: 'binary', maxLength: 80 }),
      status: fc.integer({ min: 100, max: 599 }),
      durationMs: fc.double({ min: 0, max: 1e7, noNaN: true }).map((ms) => Math.abs(Math.round(ms * 10) / 10)),
      memberId: fc.option(fc.string({ unit: 'binary', maxLength: 60 }), { nil: undefined }),
      cache: fc.option(
        fc.oneof(
          fc.constantFrom('HIT' as const, 'STALE' as const, 'MISS' as const, 'PASS' as const),
          anyText as fc.Arbitrary<RequestLine['cache']>,
        ),
        { nil: undefined },
      ),
      aborted: fc.option(fc.constant(true as const), { nil: undefined }),
    },
    { requiredKeys: ['requestId', 'method', 'path', 'route', 'status', 'durationMs'] },
  );

  it('is JSON that reads back as exactly its fields, whatever they hold', () => {
    fc.assert(
      fc.property(line, (fields) => {
        requestLogger().info(fields, 'request');
        // Unset fields are left out. Lone surrogates survive: the line is checked before it is encoded as UTF-8.
        const expected = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
        expect(written()).toEqual({ level: 30, time: expect.any(Number), ...expected, msg: 'request' });
      }),
      { numRuns: 500 },
    );
  });

  it('has its secret fields blanked by pino’s redaction, as every record has', () => {
    const secret = 's3cr3t-0123456789';
    const fields = { requestId: 'req-1', method: 'GET', path: '/', route: '/', status: 200, durationMs: 1 };
    const secrets = {
      authorization: `Bearer ${secret}`,
      cookie: `chrysalis_session=${secret}`,
      password: secret,
      token: secret,
      email: `${secret}@example.org`,
    };
    requestLogger().info({ ...fields, ...secrets }, 'request');
    expect(lines.at(-1)).not.toContain(secret);
    expect(written()).toMatchObject({
      ...fields,
      authorization: '[redacted]',
      cookie: '[redacted]',
      password: '[redacted]',
      token: '[redacted]',
      email: '[redacted]',
    });
  });
});

describe('standard output in production', () => {
  it('writes the records of a turn together, in order, across loggers, and large batches whole', () => {
    const { records, status } = runInProduction(`
      for (let i = 0; i < 2000; i += 1) requests.requestLogger().info({ n: i, pad: 'x'.repeat(100) }, 'request');
      log.logger('test').warn({ n: 2000 }, 'after');
    `);
    expect(status).toBe(0);
    expect(records.map((record) => record.n)).toEqual(Array.from({ length: 2001 }, (_, i) => i));
    expect(records.at(-1)).toMatchObject({ msg: 'after', component: 'test', level: 40 });
  });

  it.each([
    ['process.exit()', `process.exit(3);`, 3],
    ['an uncaught exception', `throw new Error('crash');`, 1],
    ['a fatal record then process.exit(1)', `log.logger('test').fatal('stopping'); process.exit(1);`, 1],
  ])('loses no record written before %s', (_, ending, code) => {
    const { records, status } = runInProduction(`
      for (let i = 0; i < 3; i += 1) requests.requestLogger().info({ n: i }, 'request');
      ${ending}
    `);
    expect(status).toBe(code);
    expect(records.filter((record) => record.msg === 'request').map((record) => record.n)).toEqual([0, 1, 2]);
  });
});

/** A path longer than any the labeller remembers. */
const i18nPadding = () => 'x'.repeat(300);

describe('route labels', () => {
  const label = routeLabeller([
    '/',
    '/video/[streamVideoId]',
    '/api/videos/[streamVideoId]',
    '/api/videos/search',
    '/api/videos/[streamVideoId]/like',
    '/media/videos/[streamVideoId]/[...file]',
    '/[...missing]',
    '/_not-found',
    '/category/[category]',
  ]);

  it.each([
    ['/', '/'],
    ['/video/Ab12Cd34', '/video/:streamVideoId'],
    ['/video/Ab12Cd34?t=1', '/video/:streamVideoId'],
    ['/api/videos/search', '/api/videos/search'],
    ['/api/videos/x1/like', '/api/videos/:streamVideoId/like'],
    ['/media/videos/x1/hls/720p/seg-1.ts', '/media/videos/:streamVideoId/:file*'],
    ['/wp-admin/setup.php', 'other'],
    ['/_next/static/chunks/abc.js', '/_next/*'],
    ['/category/Sissy', '/category/:category'],
  ])('%s is %s', (path, expected) => {
    expect(label(path)).toBe(expected);
    expect(label(path)).toBe(expected); // remembered
  });

  it('keeps labelling right past the number of paths it remembers, and for long paths', () => {
    for (let i = 0; i < 5_000; i += 1) expect(label(`/video/v${i}`)).toBe('/video/:streamVideoId');
    expect(label(`/wp-${i18nPadding()}`)).toBe('other');
    expect(label('/category/Sissy')).toBe('/category/:category');
  });
});

describe('the metrics token', () => {
  it('takes only the exact bearer token', () => {
    const token = 'a-metrics-token-0123456789';
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`Bearer ${token}x`, token)).toBe(false);
    expect(bearerMatches(token, token)).toBe(false);
    expect(bearerMatches(undefined, token)).toBe(false);
    expect(bearerMatches('Bearer ', token)).toBe(false);
  });
});
