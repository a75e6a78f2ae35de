import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { addCompileHints, COMPILE_HINT, MIN_HINTED_CHUNK_BYTES, startupChunks } from '@/lib/build/compile-hints';

const code = (name: string) => `/*${'x'.repeat(MIN_HINTED_CHUNK_BYTES)}*/\nconsole.log(${JSON.stringify(name)});\n`;

/** A build folder as Next leaves it: the root files in the build manifest, each route's entry files in its client reference manifest. */
function fakeBuild(): string {
  const dist = mkdtempSync(path.join(os.tmpdir(), 'compile-hints-'));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
    writeFileSync(path.join(dist, file), text);
  };
  write(
    'build-manifest.json',
    JSON.stringify({
      rootMainFiles: ['static/chunks/runtime.js', 'static/chunks/react-dom.js'],
      polyfillFiles: ['static/chunks/polyfills.js'],
    }),
  );
  const manifest = (route: string, entries: Record<string, string[]>) =>
    `globalThis.__RSC_MANIFEST = globalThis.__RSC_MANIFEST || {};\nglobalThis.__RSC_MANIFEST[${JSON.stringify(route)}] = ${JSON.stringify({ clientModules: {}, entryJSFiles: entries, entryCSSFiles: {} })};\n`;
  write(
    'server/app/page_client-reference-manifest.js',
    manifest('/page', {
      '[project]/app/layout': ['static/chunks/layout.js'],
      '[project]/app/page': ['static/chunks/layout.js', 'static/chunks/home.js'],
    }),
  );
  write(
    'server/app/video/[id]/page_client-reference-manifest.js',
    manifest('/video/[id]/page', { '[project]/app/video/[id]/page': ['static/chunks/video.js', 'static/chunks/video.css'] }),
  );
  // Big enough to be hinted, but for `tiny`; the code is a comment and a call, so each file's text is easy to check.
  for (const chunk of ['runtime', 'react-dom', 'layout', 'home', 'video', 'polyfills', 'dialog-loaded-later'])
    write(`static/chunks/${chunk}.js`, code(chunk));
  write('static/chunks/tiny.js', 'console.log("tiny");\n');
  write(
    'server/app/about/page_client-reference-manifest.js',
    manifest('/about/page', { '[project]/app/about/page': ['static/chunks/tiny.js'] }),
  );
  return dist;
}

describe('compile hints on the chunks pages start with (decision 034)', () => {
  let dist: string;
  beforeEach(() => {
    dist = fakeBuild();
  });
  afterEach(() => rmSync(dist, { recursive: true, force: true }));

  const chunk = (name: string) => readFileSync(path.join(dist, 'static/chunks', name), 'utf8');

  it('names the root files and every route entry file, once each, and no stylesheet', () => {
    expect(startupChunks(dist)).toEqual(
      ['home', 'layout', 'react-dom', 'runtime', 'tiny', 'video'].map((name) => `static/chunks/${name}.js`),
    );
  });

  it('puts the hint on the first line of those chunks only, and leaves their code as it was', () => {
    expect(addCompileHints(dist)).toEqual(
      ['home', 'layout', 'react-dom', 'runtime', 'video'].map((name) => `static/chunks/${name}.js`),
    );
    expect(chunk('react-dom.js')).toBe(`${COMPILE_HINT}${code('react-dom')}`);
    expect(chunk('video.js').startsWith('//# allFunctionsCalledOnLoad\n')).toBe(true);
    // Loaded later, or never by a modern browser: their functions are compiled lazily, when called.
    expect(chunk('dialog-loaded-later.js')).toBe(code('dialog-loaded-later'));
    expect(chunk('polyfills.js')).toBe(code('polyfills'));
    // Too small for the hint to pay for its bytes.
    expect(chunk('tiny.js')).toBe('console.log("tiny");\n');
  });

  it('changes nothing when applied a second time', () => {
    const hinted = addCompileHints(dist);
    const once = chunk('home.js');
    expect(addCompileHints(dist)).toEqual(hinted);
    expect(chunk('home.js')).toBe(once);
  });

  it('fails loudly on a build without a build manifest instead of shipping chunks without the hint', () => {
    rmSync(path.join(dist, 'build-manifest.json'));
    expect(() => addCompileHints(dist)).toThrow(/build-manifest\.json/);
  });
});
