import { NextResponse, type NextRequest } from 'next/server';

import { FILL_HEADER } from '@/lib/front/page-cache';
import { newNonce } from '@/lib/front/content-security-policy';
import { processMediaOrigin } from '@/lib/front/media-origin';
import { noncePolicy } from '@/lib/front/page-policy';
import { unsealToken } from '@/lib/server/auth/tokens';
import { canonicalTag, findCategory, tagHref } from '@/lib/site';
import { STORAGE_KEYS } from '@/lib/storage-keys';

/**
 * Two jobs, both cheap: optimistic redirects (it authorises nothing: every
 * page and handler checks access itself against the database), and the
 * Content-Security-Policy of every page Next renders, with a fresh nonce.
 * Keep upload routes out of the matcher: proxy buffers request bodies and
 * cuts them at 10 MB.
 */
const MEMBER_ONLY = [
  /^\/upload$/,
  /^\/upload\/performers\/[^/]+$/,
  /^\/verify$/,
  /^\/settings(\/security)?$/,
  /^\/notifications$/,
  /^\/liked-videos$/,
  /^\/watch-later$/,
  /^\/history$/,
  /^\/playlists$/,
  /^\/following$/,
  /^\/profile\/[^/]+$/,
  /^\/data-export\/[^/]+$/,
];
const ADMIN_ONLY = /^\/admin(\/|$)/;

export async function proxy(request: NextRequest) {
  return (await redirectFor(request)) ?? withNoncePolicy(request);
}

async function redirectFor(request: NextRequest): Promise<NextResponse | undefined> {
  const { pathname, search } = request.nextUrl;

  // /category/sissy → /category/Sissy: one canonical URL per category.
  const categoryMatch = /^\/category\/([^/]+)$/.exec(pathname);
  if (categoryMatch?.[1]) {
    const name = safeDecode(categoryMatch[1]);
    const category = name === undefined ? undefined : findCategory(name);
    return category && category !== name ? redirect(request, `/category/${category}`, 308) : undefined;
  }

  // /tag/Sissy%20Maid → /tag/sissy%20maid: one canonical URL per tag (its query, the order, kept).
  const tagMatch = /^\/tag\/([^/]+)$/.exec(pathname);
  if (tagMatch?.[1]) {
    const name = safeDecode(tagMatch[1]);
    if (name === undefined) return undefined;
    const canonical = tagHref(name);
    return canonical !== pathname && canonicalTag(name) ? redirect(request, `${canonical}${search}`, 308) : undefined;
  }

  const adminPage = ADMIN_ONLY.test(pathname);
  if (adminPage || MEMBER_ONLY.some((pattern) => pattern.test(pathname))) {
    // Optimistic: a cookie that unseals is enough to let the page decide; the page checks the session for real.
    const cookie = request.cookies.get(STORAGE_KEYS.sessionCookie)?.value;
    const claims = cookie ? await unsealToken(cookie) : null;
    if (!claims) return redirect(request, `/login?next=${encodeURIComponent(`${pathname}${search}`)}`);
    if (adminPage && !claims.adm) return redirect(request, '/');
  }
  return undefined;
}

/**
 * Next reads the nonce from the request's policy and writes it on every script of a page it renders now
 * (decision 008). The page cache's own fetches bring their own one-time nonce and get no policy here: the
 * cache allows the finished page's scripts by hash. scripts/serve.ts drops FILL_HEADER from any request it
 * did not send itself.
 */
function withNoncePolicy(request: NextRequest): NextResponse {
  if (request.headers.has(FILL_HEADER)) return NextResponse.next();
  const policy = noncePolicy(newNonce(), {
    dev: process.env.NODE_ENV !== 'production',
    apiBaseUrl: process.env.NEXT_PUBLIC_API_BASE_URL,
    mediaOrigin: processMediaOrigin(),
  });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('content-security-policy', policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('content-security-policy', policy);
  return response;
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
  // Every page, so every page Next renders gets a policy; not the API (uploads stream there), Next's own
  // files, media, the embed player (its route sets its own policy), robots.txt, the sitemap's index and files
  // (/sitemap/{id}.xml), the feed or the files under public/.
  matcher: [
    '/((?!api/|_next/|media/|embed/|favicon\\.ico$|icon\\.svg$|apple-icon\\.png$|robots\\.txt$|sitemap\\.xml$|sitemap/|feed\\.xml$|logo-512\\.png$|logo\\.svg$|placeholder-thumbnail\\.svg$).*)',
  ],
};
