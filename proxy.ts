import { NextResponse, type NextRequest } from 'next/server';

import { unsealToken } from '@/lib/server/auth/tokens';
import { findCategory } from '@/lib/site';
import { STORAGE_KEYS } from '@/lib/storage-keys';

/**
 * Redirects only; it authorises nothing (every page and handler checks access
 * itself against the database). Keep upload routes out of the matcher: proxy
 * buffers request bodies and cuts them at 10 MB.
 */
const MEMBER_ONLY = [/^\/upload$/, /^\/liked-videos$/, /^\/following$/, /^\/profile\/[^/]+$/];
const ADMIN_ONLY = /^\/admin(\/|$)/;

export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;

  // /category/sissy → /category/Sissy: one canonical URL per category.
  const categoryMatch = /^\/category\/([^/]+)$/.exec(pathname);
  if (categoryMatch?.[1]) {
    const name = safeDecode(categoryMatch[1]);
    const category = name === undefined ? undefined : findCategory(name);
    if (category && category !== name) return redirect(request, `/category/${category}`, 308);
    return NextResponse.next();
  }

  const adminPage = ADMIN_ONLY.test(pathname);
  if (adminPage || MEMBER_ONLY.some((pattern) => pattern.test(pathname))) {
    // Optimistic: a cookie that unseals is enough to let the page decide; the page checks the session for real.
    const cookie = request.cookies.get(STORAGE_KEYS.sessionCookie)?.value;
    const claims = cookie ? await unsealToken(cookie) : null;
    if (!claims) return redirect(request, `/login?next=${encodeURIComponent(`${pathname}${search}`)}`);
    if (adminPage && !claims.adm) return redirect(request, '/');
  }
  return NextResponse.next();
}

function redirect(request: NextRequest, target: string, status = 307) {
  return NextResponse.redirect(new URL(target, request.nextUrl.origin), status);
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined; // malformed escapes fall through to the page's 404
  }
}

export const config = {
  matcher: ['/category/:path*', '/upload', '/liked-videos', '/following', '/profile/:path*', '/admin', '/admin/:path*'],
};
