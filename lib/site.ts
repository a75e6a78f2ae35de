/**
 * Product constants from the specification (sections 1, 2 and 9), shared by
 * server and client code.
 */
export const CATEGORIES = ['Sissy', 'Beta', 'Censor'] as const;
export type Category = (typeof CATEGORIES)[number];

/** Case-insensitive lookup: "sissy" → "Sissy"; unknown names → undefined. */
export function findCategory(name: string): Category | undefined {
  const wanted = name.toLowerCase();
  return CATEGORIES.find((category) => category.toLowerCase() === wanted);
}

/** The policy pages' paths (components/policies holds their texts; a unit test keeps the two in step). */
export const POLICY_SLUGS = [
  'community-standards',
  'privacy-policy',
  'terms-of-use',
  'copyright-policy',
  'cookie-policy',
  'lgbtq-support',
  '2257',
] as const;

/**
 * Pages whose HTML is the same for every visitor (member-specific parts are
 * client islands), so a shared cache may serve them.
 */
export function isPublicPagePath(pathname: string): boolean {
  if (pathname === '/' || pathname === '/subscribe' || pathname === '/transparency') return true;
  if (pathname.startsWith('/category/')) return CATEGORIES.some((category) => pathname === `/category/${category}`);
  if (pathname.startsWith('/video/')) return /^\/video\/[A-Za-z0-9_-]{1,32}$/.test(pathname);
  if (pathname.startsWith('/tag/')) return /^\/tag\/[^/]{1,200}$/.test(pathname);
  // Public and unlisted playlists render as a visitor sees them; a private one is the same 404 for everyone.
  if (pathname.startsWith('/playlist/')) return /^\/playlist\/[A-Za-z0-9_-]{12}$/.test(pathname);
  return (POLICY_SLUGS as readonly string[]).includes(pathname.slice(1));
}

export const DEFAULT_DESCRIPTION =
  'A safe space for transformation and exploration: Sissy, Beta and Censor videos for an adult LGBTQ+ community.';

export const DEFAULT_KEYWORDS = ['sissy', 'beta', 'transformation', 'hypno', 'videos', 'exploration', 'LGBTQ+'];

/** The spec's default preview image: the 512 px logo. */
export const DEFAULT_IMAGE = { path: '/logo-512.png', width: 512, height: 512 } as const;

/** Self-labelling for parental-control filters: generic adult rating plus the RTA label. */
export const RTA_LABEL = 'RTA-5042-1996-1400-1577-RTA';

/** Viewports at or below this width get the mobile menu. */
export const MOBILE_MENU_MAX_WIDTH = 1023;

export const HOME_PAGE_SIZES = { recent: 12, top: 6 } as const;

/** Where "No, Exit Site" sends a visitor. */
export const EXIT_URL = 'https://www.google.com/';

/**
 * The /search URL for a query typed in the search box, or null when the
 * query is blank (the spec says blank input is ignored).
 */
export function searchHref(query: string): string | null {
  const trimmed = query.trim();
  return trimmed ? `/search?q=${encodeURIComponent(trimmed)}` : null;
}

/** A tag as videos store it and its page names it: trimmed, without a leading #, lower-case. */
export const canonicalTag = (tag: string) => tag.trim().replace(/^#/, '').toLowerCase();

/** A tag's page: /tag/{tag}, the one URL for every spelling of it (proxy.ts redirects the others). */
export const tagHref = (tag: string) => `/tag/${encodeURIComponent(canonicalTag(tag))}`;
