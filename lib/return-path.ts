const BASE = 'https://chrysalis.invalid';

/**
 * Where to go after login: a path on this site, or home. The value is
 * normalised first, exactly as the browser will read it (the URL parser drops
 * tabs and newlines, resolves dot segments, turns backslashes into slashes),
 * and only then judged, so `/.//evil.example`, `/\t/evil.example` or
 * `/\\evil.example` cannot turn into a protocol-relative `//evil.example`
 * after the check. What comes out is re-serialised from the parsed URL.
 */
export function safeReturnPath(value: string | null | undefined): string {
  if (!value || !value.startsWith('/')) return '/';
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return '/';
  }
  if (url.origin !== BASE) return '/';
  const path = `${url.pathname}${url.search}${url.hash}`;
  // A path whose normalised form starts with two slashes (or a slash and a backslash) is another host to a browser.
  if (!path.startsWith('/') || /^\/[/\\]/.test(path)) return '/';
  if (url.pathname === '/login' || url.pathname === '/register') return '/';
  return path;
}
