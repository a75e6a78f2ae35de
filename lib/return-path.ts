/**
 * Where to go after login: only paths on this site. Anything else (another
 * origin, protocol-relative //evil.example, backslash tricks) goes home, so
 * the login page cannot be used as an open redirect.
 */
export function safeReturnPath(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return '/';
  try {
    const url = new URL(value, 'http://chrysalis.invalid');
    if (url.origin !== 'http://chrysalis.invalid') return '/';
    if (url.pathname === '/login' || url.pathname === '/register') return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}
