import {
  AGE_GATE_BOOT_SCRIPT,
  AGE_GATE_READY_SCRIPT,
  HEADER_BOOT_SCRIPT,
  HEADER_READY_SCRIPT,
  PLAYER_START_SCRIPT,
  SPECULATION_RULES,
} from '@/lib/app-scripts/generated';
import { contentSecurityPolicy, newNonce, scriptHashSource } from '@/lib/front/content-security-policy';
import { inlineScripts, pageScriptHashes } from '@/lib/front/inline-scripts';
import { APP_INLINE_SCRIPTS, hashPolicy, noncePolicy } from '@/lib/front/page-policy';

const directive = (policy: string, name: string) => policy.split('; ').find((part) => part.startsWith(`${name} `));

const NEXT_BOOTSTRAP = '(self.__next_f=self.__next_f||[]).push([0])';
const NEXT_PAYLOAD = 'self.__next_f.push([1,"1:\\"$Sreact.fragment\\"\\n2:I[\\"x\\",[]]\\n"])';
const TURBOPACK =
  '(globalThis["TURBOPACK"] || (globalThis["TURBOPACK"] = [])).push({"otherChunks":["static/chunks/a.js"],"runtimeModuleIds":[1]});';

/** A page shaped like Next's output: the layout's boot script, JSON-LD, chunk scripts and the inline bootstrap. */
const page = (
  extra = '',
) => `<!DOCTYPE html><html><head><script>${AGE_GATE_BOOT_SCRIPT.text}</script><script>${HEADER_BOOT_SCRIPT.text}</script><script type="speculationrules">${SPECULATION_RULES.text}</script>
<script src="/_next/static/chunks/main.js" async=""></script>
<script type="application/ld+json" id="structured-data">{"name":"\\u003c/script\\u003e"}</script></head>
<body><div class="app-root" inert><header><script>${HEADER_READY_SCRIPT.text}</script></header><!--$--><main>${extra}</main><!--/$--></div><script>${AGE_GATE_READY_SCRIPT.text}</script>
<script id="_R_">${TURBOPACK}</script><script>${NEXT_BOOTSTRAP}</script><script>${NEXT_PAYLOAD}</script></body></html>`;

describe('script hashes', () => {
  it('match the CSP specification’s example', () => {
    expect(scriptHashSource("alert('Hello, world.');")).toBe("'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='");
  });

  it('hash the text as the HTML parser hands it over, with CR LF and CR read as LF', () => {
    expect(scriptHashSource('a();\r\nb();\rc();')).toBe(scriptHashSource('a();\nb();\nc();'));
  });
});

describe('inline scripts of a page', () => {
  it('are found as a browser finds them: no src, comments skipped, end tags in any case and spacing', () => {
    const html = `<!-- <script>commented()</script> --><script type="module">one()</script><SCRIPT data-x='a>b'>two()</SCRIPT >
      <script src="/x.js"></script><script type="application/ld+json">{}</script\t>`;
    expect(inlineScripts(html)).toEqual([
      { type: 'module', nonce: '', text: 'one()' },
      { type: '', nonce: '', text: 'two()' },
      { type: 'application/ld+json', nonce: '', text: '{}' },
    ]);
  });

  it('allow Next’s bootstrap, its payload pushes, Turbopack’s chunk list and the app’s own scripts and speculation rules, and no data block', () => {
    const { sources, unknown } = pageScriptHashes(page(), { appScripts: APP_INLINE_SCRIPTS });
    expect(unknown).toEqual([]);
    expect(sources.sort()).toEqual(
      [
        AGE_GATE_BOOT_SCRIPT.text,
        AGE_GATE_READY_SCRIPT.text,
        HEADER_BOOT_SCRIPT.text,
        HEADER_READY_SCRIPT.text,
        SPECULATION_RULES.text,
        TURBOPACK,
        NEXT_BOOTSTRAP,
        NEXT_PAYLOAD,
      ]
        .map(scriptHashSource)
        .sort(),
    );
  });

  it('allow speculation rules only when they are the app’s own, exactly', () => {
    const injected = '{"prerender":[{"where":{"href_matches":"/*"},"eagerness":"immediate"}]}';
    const { sources } = pageScriptHashes(page(`<script type="speculationrules">${injected}</script>`), {
      appScripts: APP_INLINE_SCRIPTS,
    });
    expect(sources).toContain(scriptHashSource(SPECULATION_RULES.text));
    expect(sources).not.toContain(scriptHashSource(injected));
  });

  it('allow every script carrying the nonce the page was rendered with (React’s Suspense runtime too), and no other nonce', () => {
    const renderNonce = newNonce();
    const reactRuntime = 'requestAnimationFrame(function(){$RT=performance.now()});';
    const html = page(
      `<script nonce="${renderNonce}">${reactRuntime}</script><script nonce="${newNonce()}">window.__xss=1</script>`,
    );
    const { sources, unknown } = pageScriptHashes(html, { appScripts: APP_INLINE_SCRIPTS, renderNonce });
    expect(sources).toContain(scriptHashSource(reactRuntime));
    expect(unknown).toEqual(['window.__xss=1']);
  });

  it.each([
    [
      'a script after a JSON-LD block that text closed early',
      '<script type="application/ld+json">{"name":"</script ><script>window.__xss=1</script>',
    ],
    ['a payload push with code after it', '<script>self.__next_f.push([1,"x"]);window.__xss=1</script>'],
    ['a payload push whose argument is not JSON', '<script>self.__next_f.push(window.__xss=1)</script>'],
    ['a script in capitals with a tab before the end', '<SCRIPT>window.__xss=1</SCRIPT\t>'],
  ])('leave out %s, which stays blocked and is reported', (_label, injected) => {
    const { sources, unknown } = pageScriptHashes(page(injected), { appScripts: APP_INLINE_SCRIPTS });
    expect(unknown).toHaveLength(1);
    expect(unknown[0]).toContain('window.__xss=1');
    expect(sources).not.toContain(scriptHashSource(unknown[0]!));
    expect(sources).toHaveLength(8);
  });
});

describe('page policies', () => {
  it('allow inline scripts of a page rendered now by nonce, and the app’s own scripts by hash, never unsafe-inline', () => {
    const nonce = newNonce();
    const policy = noncePolicy(nonce, { dev: false });
    expect(directive(policy, 'script-src')).toBe(
      `script-src 'self' 'nonce-${nonce}' ${scriptHashSource(AGE_GATE_BOOT_SCRIPT.text)} ${scriptHashSource(AGE_GATE_READY_SCRIPT.text)} ${scriptHashSource(HEADER_BOOT_SCRIPT.text)} ${scriptHashSource(HEADER_READY_SCRIPT.text)} ${scriptHashSource(PLAYER_START_SCRIPT.text)} ${scriptHashSource(SPECULATION_RULES.text)}`,
    );
    expect(policy).toContain("object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'");
    expect(newNonce()).not.toBe(nonce);
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });

  it('allow a cached page’s inline scripts by hash, and report scripts of unknown shape', () => {
    const reported: string[] = [];
    const policy = hashPolicy(page('<script>window.__xss=1</script>'), newNonce(), { dev: false }, (scripts) =>
      reported.push(...scripts),
    );
    expect(directive(policy, 'script-src')).not.toMatch(/unsafe-inline|nonce-/);
    expect(directive(policy, 'script-src')).toContain(scriptHashSource(NEXT_PAYLOAD));
    expect(reported).toEqual(['window.__xss=1']);
  });

  it('open eval and the reload socket only in development, and name an API origin the client calls', () => {
    const dev = contentSecurityPolicy([], { dev: true, apiBaseUrl: 'https://api.example.org' });
    expect(directive(dev, 'script-src')).toBe("script-src 'self' 'unsafe-eval'");
    expect(directive(dev, 'connect-src')).toBe("connect-src 'self' https://api.example.org ws:");
    expect(contentSecurityPolicy([], { dev: false })).not.toMatch(/unsafe-eval|ws:/);
  });
});
