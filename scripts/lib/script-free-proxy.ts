/**
 * The site's pages without Next's and React's JavaScript, for `npm run
 * bench:lighthouse`: a loopback proxy in front of the server that answers
 * every request as the server does, except that an HTML page loses every
 * script element but the app's own constant inline scripts (the age gate, the
 * header, the player's start button, the speculation rules) and its JSON-LD,
 * and every script preload. What the browser then does for the page (parse,
 * style, layout, fonts, paint) is the page's own rendering cost on this
 * machine.
 *
 * The proxy itself moves Lighthouse's figures: it answers each request whole,
 * later than the server would, and Lighthouse's simulation builds its network
 * model from what it observes (measured: /category/Sissy TBT 130 ms direct,
 * 24 ms through this proxy with nothing removed). So the page is compared with
 * itself through the same proxy with nothing removed (`rewriteHtml` left out):
 * the difference between the two, in the same run, is what the scripts add.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';

import { isExecutable } from '@/lib/front/inline-scripts';
import { APP_INLINE_SCRIPTS } from '@/lib/front/page-policy';

/**
 * A start tag's attributes may hold a quoted `>`. Unlike lib/front/inline-scripts.ts, which only reads scripts,
 * this match takes the whole end tag (`</script >` included), so that removing it leaves nothing behind.
 */
const SCRIPT_ELEMENT = /<script\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/script[^>]*>/gi;
const LINK_ELEMENT = /<link\b((?:[^>"']|"[^"]*"|'[^']*')*)>/gi;
const MODULE_PRELOAD = /(?:^|\s)rel\s*=\s*["']?modulepreload\b/i;
const PRELOAD = /(?:^|\s)rel\s*=\s*["']?preload\b/i;
const AS_SCRIPT = /(?:^|\s)as\s*=\s*["']?script\b/i;
const SRC_ATTRIBUTE = /(?:^|\s)src\s*=/i;
const TYPE_ATTRIBUTE = /(?:^|\s)type\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;
const APP_SCRIPTS = new Set(APP_INLINE_SCRIPTS);
/** Bodies the server compresses: the proxy compresses them again (fetch hands them over decoded), so transfer sizes stay close to the server's. */
const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|rss\+xml|manifest\+json)|image\/svg\+xml)/;

/** The page with only the app's own inline scripts and the script elements a browser does not run (JSON-LD, speculation rules) left. */
export function withoutFrameworkScripts(html: string): string {
  return html
    .replace(SCRIPT_ELEMENT, (element, attributes: string, text: string) => {
      if (SRC_ATTRIBUTE.test(attributes)) return '';
      const [, double, single, bare] = TYPE_ATTRIBUTE.exec(attributes) ?? [];
      const type = (double ?? single ?? bare ?? '').trim().toLowerCase();
      return APP_SCRIPTS.has(text) || !isExecutable({ type, nonce: '', text }) ? element : '';
    })
    .replace(LINK_ELEMENT, (element, attributes: string) =>
      MODULE_PRELOAD.test(attributes) || (PRELOAD.test(attributes) && AS_SCRIPT.test(attributes)) ? '' : element,
    );
}

/** Headers that describe the body as the server sent it, not as the proxy sends it. */
const BODY_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive']);

/**
 * Starts the proxy on 127.0.0.1:port in front of `origin`, its HTML pages rewritten by `rewriteHtml` (as they are
 * without it). Request bodies are not forwarded: a page load sends none.
 */
export async function startPageProxy(
  origin: string,
  port: number,
  rewriteHtml: (html: string) => string = (html) => html,
): Promise<Server> {
  const server = createServer((req, res) => {
    const headers = Object.fromEntries(
      Object.entries(req.headers as IncomingHttpHeaders).filter(
        ([name, value]) => typeof value === 'string' && !['host', 'connection', 'accept-encoding'].includes(name),
      ),
    ) as Record<string, string>;
    void fetch(`${origin}${req.url ?? '/'}`, { method: req.method, headers, redirect: 'manual' })
      .then(async (answer) => {
        const type = answer.headers.get('content-type') ?? '';
        let body = type.startsWith('text/html')
          ? Buffer.from(rewriteHtml(await answer.text()))
          : Buffer.from(await answer.arrayBuffer());
        const out: Record<string, string | string[]> = {};
        if (COMPRESSIBLE.test(type) && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
          body = gzipSync(body);
          out['content-encoding'] = 'gzip';
        }
        answer.headers.forEach((value, name) => {
          if (!BODY_HEADERS.has(name) && name !== 'set-cookie') out[name] = value;
        });
        const cookies = answer.headers.getSetCookie();
        if (cookies.length) out['set-cookie'] = cookies;
        out['content-length'] = String(body.length);
        res.writeHead(answer.status, out).end(req.method === 'HEAD' ? undefined : body);
      })
      .catch((error: unknown) => res.writeHead(502).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}
