import { NextResponse, type NextRequest } from 'next/server';

import { findCategory } from '@/lib/site';

/**
 * Redirects only; it authorises nothing (every page and handler checks access
 * itself). Keep upload routes out of the matcher: proxy buffers request
 * bodies and cuts them at 10 MB.
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;

  // /category/sissy → /category/Sissy: one canonical URL per category.
  const categoryMatch = /^\/category\/([^/]+)$/.exec(pathname);
  if (categoryMatch?.[1]) {
    const name = safeDecode(categoryMatch[1]);
    const category = name === undefined ? undefined : findCategory(name);
    if (category && category !== name) {
      const url = request.nextUrl.clone();
      url.pathname = `/category/${category}`;
      return NextResponse.redirect(url, 308);
    }
  }
  return NextResponse.next();
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined; // malformed escapes fall through to the page's 404
  }
}

export const config = {
  matcher: ['/category/:path*'],
};
