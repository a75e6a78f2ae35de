/**
 * V8's explicit compile hint on the scripts every page runs as it starts (decision 034).
 *
 * A browser compiles a script's top level as it downloads it, on a background thread, but each function
 * only when it is first called, on the main thread. React DOM, the App Router and the page's client
 * components are nearly all called while the page hydrates, so a phone compiled them there, inside the
 * one long task that evaluates them: about half of that task. The magic comment
 * `//# allFunctionsCalledOnLoad` at the top of a file (Chromium 136 and later; other engines ignore a
 * comment) has the functions compiled with the file, off the main thread.
 *
 * The hint goes only on the chunks a page's HTML names (the build manifest's root files and each app
 * route's entry files), not on chunks loaded later (a dialog's `import()`, the player's hls.js): most of
 * their functions may never run, and compiling them all would cost memory and a background thread's
 * time for nothing. Nor on a chunk under 8 KB: compiling it lazily costs a phone a millisecond or two,
 * less than the hint's own 29 bytes are worth in the first-load budget (decision 028).
 *
 * Applied after Next compiles (next.config.ts, `compiler.runAfterProductionCompile`), before it
 * prerenders: file names and the pages' script tags stay as Next made them. No source maps are shipped
 * for the browser, so none need shifting by the added line. Applying it twice changes nothing.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

const CLIENT_REFERENCE_MANIFEST = /_client-reference-manifest\.js$/;
/** Chunks smaller than this (bytes, before compression) are left as they are. */
export const MIN_HINTED_CHUNK_BYTES = 8 * 1024;

interface ClientReferenceManifest {
  entryJSFiles?: Record<string, string[]>;
}

/** Every client reference manifest under `dir`, with the entry files it lists. */
function* routeManifests(dir: string): Generator<ClientReferenceManifest> {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* routeManifests(file);
    else if (CLIENT_REFERENCE_MANIFEST.test(entry.name)) {
      // The manifest is a script that assigns globalThis.__RSC_MANIFEST[route]; run it in a context of its own to read it.
      const context = vm.createContext({});
      vm.runInContext(readFileSync(file, 'utf8'), context, { filename: file });
      const byRoute = (context as { __RSC_MANIFEST?: Record<string, ClientReferenceManifest> }).__RSC_MANIFEST ?? {};
      yield* Object.values(byRoute);
    }
  }
}

/** The chunks (paths under `distDir`, e.g. `static/chunks/x.js`) that some page's HTML names as it starts. */
export function startupChunks(distDir: string): string[] {
  const buildManifest = JSON.parse(readFileSync(path.join(distDir, 'build-manifest.json'), 'utf8')) as {
    rootMainFiles?: string[];
  };
  const chunks = new Set(buildManifest.rootMainFiles ?? []);
  for (const manifest of routeManifests(path.join(distDir, 'server', 'app'))) {
    for (const files of Object.values(manifest.entryJSFiles ?? {})) for (const file of files) chunks.add(file);
  }
  return [...chunks].filter((file) => file.endsWith('.js')).sort();
}

/** Puts the hint at the top of every startup chunk of at least MIN_HINTED_CHUNK_BYTES in `distDir`; returns the chunks hinted. */
export function addCompileHints(distDir: string): string[] {
  const hinted: string[] = [];
  for (const chunk of startupChunks(distDir)) {
    const file = path.join(distDir, chunk);
    const code = readFileSync(file, 'utf8');
    if (code.startsWith(COMPILE_HINT)) hinted.push(chunk);
    else if (Buffer.byteLength(code) >= MIN_HINTED_CHUNK_BYTES) {
      writeFileSync(file, COMPILE_HINT + code);
      hinted.push(chunk);
    }
  }
  return hinted;
}
