/**
 * The bare-Node baseline of `npm run bench:pages`: a plain `node:http`
 * server, in a process of its own, that answers each captured page with the
 * exact status, headers and bytes the real server sent (scripts/lib/page-captures.ts
 * captures them per encoding), choosing the encoding from Accept-Encoding the
 * way the page cache does (br, else gzip, else identity). Nothing else: no
 * logging, metrics, routing or policy, so it is what Node itself can do with
 * those bytes on this machine.
 *
 * With `--in-app`, the same handler runs in a process that has first loaded
 * and prepared the Next app (its instrumentation included: job workers, the
 * embedded database), as scripts/serve.ts does, without serving anything
 * through it: what any answer from memory can reach inside the app's process,
 * whose runtime Next patches (process.nextTick, setImmediate, Date.now) and
 * whose heap is the app's (decision 039). Give it a DATA_DIR of its own.
 *
 * Run as `tsx scripts/lib/bare-page-server.ts <captures.json> [--in-app]`; it
 * listens on a free loopback port and prints `bare-page-server listening <port>` on stdout.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

import type { CapturedAnswer, CapturedPage } from './page-captures';

async function main() {
  const file = process.argv[2];
  if (!file) throw new Error('Usage: tsx scripts/lib/bare-page-server.ts <captures.json> [--in-app]');
  if (process.argv[3] === '--in-app') {
    // Imported only here, so the lean baseline's heap holds none of Next.
    const { default: next } = await import('next');
    await next({ dev: false }).prepare();
  }
  const decode = (answer: CapturedAnswer) => ({
    status: answer.status,
    headers: answer.headers,
    body: Buffer.from(answer.body, 'base64'),
  });
  const pages = new Map(
    (JSON.parse(readFileSync(file, 'utf8')) as CapturedPage[]).map((page) => [
      page.path,
      { br: decode(page.br), gzip: decode(page.gzip), identity: decode(page.identity) },
    ]),
  );
  const server = createServer((req, res) => {
    const page = pages.get(req.url ?? '');
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    const accepted = req.headers['accept-encoding'] ?? '';
    const answer = /\bbr\b/.test(accepted) ? page.br : /\bgzip\b/.test(accepted) ? page.gzip : page.identity;
    res.writeHead(answer.status, answer.headers);
    res.end(req.method === 'HEAD' ? undefined : answer.body);
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    console.log(`bare-page-server listening ${typeof address === 'object' && address ? address.port : ''}`);
  });
  process.on('SIGTERM', () => process.exit(0));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
