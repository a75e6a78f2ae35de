/**
 * Finds the inline scripts of a finished HTML page and decides which of them
 * the page's Content-Security-Policy may allow by hash.
 *
 * Hashing every inline script of a page would also allow one that text
 * injected into the page (a title that closed a JSON-LD block, say), so only
 * scripts known to come from Next, React or the app are allowed:
 * - on a page rendered for the fill, those carrying the fill's one-time nonce:
 *   Next and React write it on every script they emit (React's Suspense
 *   runtime included), and no text stored before that render can know it;
 * - on a page Next prerendered at build time, which has no nonce, the shapes
 *   Next writes: its bootstrap, its RSC payload pushes (checked to be one call
 *   with a JSON argument, so nothing can ride along after it) and Turbopack's
 *   chunk list;
 * - the app's own constant scripts, on either (React writes no nonce on them).
 * Anything else stays blocked and is reported.
 *
 * Plain Node, no Next imports: the server entry runs it.
 */
import { scriptHashSource } from './content-security-policy';

export interface InlineScript {
  /** The element's type attribute, lower-cased; '' when absent. */
  type: string;
  /** Its nonce attribute; '' when absent. */
  nonce: string;
  text: string;
}

/** A start tag's attributes may hold quoted `>`; the end tag is `</script` followed by space, `/` or `>` in any case. */
const SCRIPT_OR_COMMENT = /<!--[\s\S]*?-->|<script\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/script[\s/>]/gi;
const ATTRIBUTE = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

/** Types a browser runs as script (the HTML standard's JavaScript MIME types, "module", or none). */
const EXECUTABLE_TYPE = /^(|module|(text|application)\/(x-)?(java|ecma)script|text\/(javascript1\.[0-5]|jscript|livescript))$/;

/** Every inline script element, executable or not (JSON-LD blocks included), in document order. */
export function inlineScripts(html: string): InlineScript[] {
  const scripts: InlineScript[] = [];
  for (const match of html.matchAll(SCRIPT_OR_COMMENT)) {
    const [, attributeText, text] = match;
    if (attributeText === undefined || text === undefined) continue; // a comment
    const attributes = new Map<string, string>();
    for (const [, name, double, single, bare] of attributeText.matchAll(ATTRIBUTE)) {
      if (name && !attributes.has(name.toLowerCase())) attributes.set(name.toLowerCase(), double ?? single ?? bare ?? '');
    }
    if (attributes.has('src')) continue;
    scripts.push({ type: (attributes.get('type') ?? '').trim().toLowerCase(), nonce: attributes.get('nonce') ?? '', text });
  }
  return scripts;
}

export function isExecutable(script: InlineScript): boolean {
  return EXECUTABLE_TYPE.test(script.type);
}

const NEXT_BOOTSTRAP = '(self.__next_f=self.__next_f||[]).push([0])';
const NEXT_PAYLOAD = { prefix: 'self.__next_f.push(', suffix: ')' };
const TURBOPACK_CHUNKS = { prefix: '(globalThis["TURBOPACK"] || (globalThis["TURBOPACK"] = [])).push(', suffix: ');' };

/** `prefix(<one JSON value>)suffix` and nothing else. */
function isCallWithJson(text: string, { prefix, suffix }: { prefix: string; suffix: string }): boolean {
  if (!text.startsWith(prefix) || !text.endsWith(suffix)) return false;
  try {
    JSON.parse(text.slice(prefix.length, text.length - suffix.length));
    return true;
  } catch {
    return false;
  }
}

export interface KnownScripts {
  /** The app's own inline scripts, exactly. */
  appScripts: readonly string[];
  /** The nonce the page was rendered with, if any: only Next and React wrote it. */
  renderNonce?: string;
}

/** Whether a script comes from Next, React or the app (see the top of this file), never from text. */
export function isKnownScript(script: InlineScript, { appScripts, renderNonce }: KnownScripts): boolean {
  if (renderNonce && script.nonce === renderNonce) return true;
  const { text } = script;
  return (
    text === NEXT_BOOTSTRAP ||
    appScripts.includes(text) ||
    isCallWithJson(text, NEXT_PAYLOAD) ||
    isCallWithJson(text, TURBOPACK_CHUNKS)
  );
}

export interface PageScriptHashes {
  /** CSP sources for the known inline scripts, without repeats. */
  sources: string[];
  /** Executable inline scripts left out of the policy: they will not run. */
  unknown: string[];
}

export function pageScriptHashes(html: string, known: KnownScripts): PageScriptHashes {
  const sources = new Set<string>();
  const unknown: string[] = [];
  for (const script of inlineScripts(html)) {
    // Data blocks such as JSON-LD never run; the app's own speculation rules are not script either, but the policy governs them.
    if (!isExecutable(script) && !known.appScripts.includes(script.text)) continue;
    if (isKnownScript(script, known)) sources.add(scriptHashSource(script.text));
    else unknown.push(script.text);
  }
  return { sources: [...sources], unknown };
}
