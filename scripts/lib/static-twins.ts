/**
 * Static twins for page benchmarks: a page's HTML saved into public/ so the
 * same server can serve the same bytes as a plain static file, the baseline
 * a page's throughput is compared with.
 *
 * Public pages render per request (then sit in the page cache), so there is
 * no prerendered file to copy: the twin is fetched from the running server.
 * Next lists public/ once when it starts, so start (or restart) the server
 * after writing twins.
 */
import { get } from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/** The page's body as sent to a client that asks for no compression (no Accept-Encoding header at all). */
export function fetchPageHtml(url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { accept: 'text/html,application/xhtml+xml' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${url} answered ${res.statusCode}`));
        else if (res.headers['content-encoding'] && res.headers['content-encoding'] !== 'identity')
          reject(new Error(`${url} came ${res.headers['content-encoding']}-encoded`));
        else resolve(Buffer.concat(chunks));
      });
    }).on('error', reject);
  });
}

/** Writes each page's HTML (fetched from origin) to public/<twin>; returns the files written, for clean-up. */
export async function writeStaticTwins(origin: string, pages: { path: string; twin: string }[]): Promise<string[]> {
  const files: string[] = [];
  for (const page of pages) {
    const file = path.join(process.cwd(), 'public', page.twin.replace(/^\//, ''));
    writeFileSync(file, await fetchPageHtml(`${origin}${page.path}`));
    files.push(file);
  }
  return files;
}
