/**
 * Splits plain text into text and link parts, so a comment can be rendered
 * as React text nodes and <a> elements (escaped by React; never HTML).
 *
 * Only http and https URLs written out in full become links. Anything else
 * (javascript:, data:, vbscript:, file:, bare domains) stays text. A URL
 * that does not parse, or carries a user name or password (the
 * "https://bank.example@evil.example" trick), stays text too. Punctuation
 * that usually ends a sentence is left out of the link, and a closing
 * bracket only belongs to the URL when the URL opened it.
 */
export type TextPart = { type: 'text'; text: string } | { type: 'link'; text: string; href: string; display: string };

/** Links are shown at most this many characters long; the full address is in href and the title. */
export const LINK_DISPLAY_MAX = 60;

const URL_START = /https?:\/\//.source;
/** Characters that end a URL in running text. */
const URL_END = /[\s<>"'`]/;
const TRAILING = new Set(['.', ',', ':', ';', '!', '?', '*', '_', '~', "'", '"']);
const CLOSERS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

const count = (text: string, char: string) => text.split(char).length - 1;

function trimTrailing(candidate: string): string {
  let url = candidate;
  for (;;) {
    const last = url.at(-1);
    if (!last) return url;
    if (TRAILING.has(last)) {
      url = url.slice(0, -1);
      continue;
    }
    const opener = CLOSERS[last];
    if (opener && count(url, last) > count(url, opener)) {
      url = url.slice(0, -1);
      continue;
    }
    return url;
  }
}

function safeHref(candidate: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(candidate);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (!parsed.hostname || parsed.username || parsed.password) return null;
  return parsed.href;
}

export function shortenForDisplay(url: string, max = LINK_DISPLAY_MAX): string {
  const chars = Array.from(url);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : url;
}

export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let plainFrom = 0;
  const pushText = (end: number) => {
    if (end > plainFrom) {
      const previous = parts.at(-1);
      const chunk = text.slice(plainFrom, end);
      if (previous?.type === 'text') previous.text += chunk;
      else parts.push({ type: 'text', text: chunk });
    }
  };
  const starts = new RegExp(URL_START, 'gi');
  for (let match = starts.exec(text); match; match = starts.exec(text)) {
    const start = match.index;
    // "xhttp://" is not a URL start: it must begin the text or follow something that is not a letter or digit.
    if (start > 0 && /[\p{L}\p{N}]/u.test(text[start - 1]!)) continue;
    let end = start + match[0].length;
    while (end < text.length && !URL_END.test(text[end]!)) end += 1;
    const candidate = trimTrailing(text.slice(start, end));
    const href = candidate.length > match[0].length ? safeHref(candidate) : null;
    if (!href) {
      starts.lastIndex = start + match[0].length;
      continue;
    }
    pushText(start);
    parts.push({ type: 'link', text: candidate, href, display: shortenForDisplay(candidate) });
    plainFrom = start + candidate.length;
    starts.lastIndex = plainFrom;
  }
  pushText(text.length);
  return parts;
}
