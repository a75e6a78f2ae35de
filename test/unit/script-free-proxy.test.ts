import { AGE_GATE_BOOT_SCRIPT, PLAYER_START_SCRIPT } from '@/lib/app-scripts/generated';

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { startPageProxy, withoutFrameworkScripts } from '../../scripts/lib/script-free-proxy';

/** What bench:lighthouse measures as "the page without its scripts" (scripts/lib/script-free-proxy.ts). */
describe('withoutFrameworkScripts', () => {
  const jsonLd = '<script type="application/ld+json">{"@type":"VideoObject","name":"A \\u003c/script> title"}</script>';

  it("keeps the app's own inline scripts, JSON-LD and the rest of the page; drops Next's and React's scripts and script preloads", () => {
    const html = [
      '<head><link rel="stylesheet" href="/_next/static/chunks/site.css" data-precedence="next"/>',
      '<link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/a.js"/>',
      '<link rel="modulepreload" href="/_next/static/chunks/m.js">',
      '<link rel="preload" as="image" href="/media/poster.webp">',
      `<script>${AGE_GATE_BOOT_SCRIPT.text}</script>`,
      '<script src="/_next/static/chunks/a.js" async=""></script></head>',
      `<body><p>Text</p>${jsonLd}`,
      `<div class="player"><video></video></div><script>${PLAYER_START_SCRIPT.text}</script>`,
      '<script nonce="abc">(self.__next_f=self.__next_f||[]).push([0])</script>',
      '<script nonce="abc">self.__next_f.push([1,"x > y"])</SCRIPT >',
      '<script src="/_next/static/chunks/b.js" data-title="a > b" async=""></script>',
      '</body>',
    ].join('');
    expect(withoutFrameworkScripts(html)).toBe(
      [
        '<head><link rel="stylesheet" href="/_next/static/chunks/site.css" data-precedence="next"/>',
        '<link rel="preload" as="image" href="/media/poster.webp">',
        `<script>${AGE_GATE_BOOT_SCRIPT.text}</script>`,
        '</head>',
        `<body><p>Text</p>${jsonLd}`,
        `<div class="player"><video></video></div><script>${PLAYER_START_SCRIPT.text}</script>`,
        '</body>',
      ].join(''),
    );
  });

  it('drops an inline script that only resembles an app script', () => {
    expect(withoutFrameworkScripts(`<p>a</p><script>${AGE_GATE_BOOT_SCRIPT.text};alert(1)</script><p>b</p>`)).toBe(
      '<p>a</p><p>b</p>',
    );
  });

  it('drops every inline script a browser runs, a module too, and keeps those it does not run', () => {
    const html =
      '<script type="module">import("/_next/static/chunks/c.js")</script><script type="text/javascript">boot()</script><script type="speculationrules">{"prefetch":[]}</script>';
    expect(withoutFrameworkScripts(html)).toBe('<script type="speculationrules">{"prefetch":[]}</script>');
  });

  it('leaves a page without scripts as it is', () => {
    const html = '<html><body><p>text &lt;script&gt;</p></body></html>';
    expect(withoutFrameworkScripts(html)).toBe(html);
  });
});

/** The proxy bench:lighthouse measures both arms through: the page as it is, and rewritten. */
describe('startPageProxy', () => {
  const page = '<html><body><p>Text</p><script src="/_next/static/chunks/a.js" async=""></script></body></html>';
  const servers: Server[] = [];
  afterAll(() => servers.forEach((server) => server.close()));

  /** A port nothing listens on (the proxy takes a port, not a server). */
  async function freePort(): Promise<number> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    return port;
  }

  async function proxyOf(origin: string, rewriteHtml?: (html: string) => string): Promise<string> {
    const port = await freePort();
    servers.push(await startPageProxy(origin, port, rewriteHtml));
    return `http://127.0.0.1:${port}`;
  }

  it('answers a page as the server does, or rewritten, with the headers a browser reads', async () => {
    const server = createServer((_, res) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page),
    );
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const asIs = await fetch(`${await proxyOf(origin)}/video/x`);
    expect(asIs.headers.get('cache-control')).toBe('no-store');
    expect(await asIs.text()).toBe(page);
    const rewritten = await fetch(`${await proxyOf(origin, withoutFrameworkScripts)}/video/x`);
    expect(await rewritten.text()).toBe('<html><body><p>Text</p></body></html>');
  });
});
