import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP server answering from a script of responses, recording what it received. */
export function scriptedServer(script: { status: number; body: string; type?: string }[]) {
  const seen: { method: string; url: string; headers: IncomingMessage['headers'] }[] = [];
  const server: Server = createServer((req, res) => {
    const cors = {
      'access-control-allow-origin': req.headers.origin ?? '*',
      'access-control-allow-credentials': 'true',
      'access-control-allow-headers': 'authorization, content-type, accept',
      'access-control-allow-methods': 'GET, POST, PUT',
    };
    if (req.method === 'OPTIONS') {
      // A browser's CORS preflight: not part of the script.
      res.writeHead(204, cors);
      res.end();
      return;
    }
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    req.resume();
    req.on('end', () => {
      const next = script[Math.min(seen.length - 1, script.length - 1)]!;
      res.writeHead(next.status, { 'content-type': next.type ?? 'application/json', ...cors });
      res.end(next.body);
    });
  });
  return new Promise<{ url: string; seen: typeof seen; close: () => Promise<void> }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        seen,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}
