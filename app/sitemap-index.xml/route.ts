import { sitemapIndexXml } from '@/lib/server/sitemap';

export const dynamic = 'force-dynamic';

/** GET /sitemap.xml — the sitemap index robots.txt names: one entry per file of app/sitemap.ts. */
export async function GET(): Promise<Response> {
  return new Response(await sitemapIndexXml(), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=0, must-revalidate' },
  });
}
