import { getConfig } from '@/lib/config/server';
import { escapeXml } from '@/lib/html';
import { listPublicVideoRows } from '@/lib/server/videos/catalog';
import { toVideoDto } from '@/lib/server/videos/dto';

export const dynamic = 'force-dynamic';

const FEED_SIZE = 50;

/**
 * GET /feed.xml — RSS 2.0 of the newest public videos, with Media RSS
 * (thumbnail, content, media:rating adult) so feed readers and aggregators
 * label it correctly.
 */
export async function GET(): Promise<Response> {
  const { siteUrl, siteName } = getConfig();
  const rows = await listPublicVideoRows(FEED_SIZE);
  const items = rows
    .map((row) => {
      const video = toVideoDto(row);
      const link = `${siteUrl}/video/${video.streamVideoId}`;
      const thumbnail = video.thumbnailUrl ? `${siteUrl}${video.thumbnailUrl}` : null;
      return `    <item>
      <title>${escapeXml(video.title)}</title>
      <link>${link}</link>
      <guid isPermaLink="true">${link}</guid>
      <pubDate>${new Date(video.createdAt).toUTCString()}</pubDate>
      <category>${video.category}</category>
      <dc:creator>${escapeXml(video.uploader.username)}</dc:creator>
      <description>${escapeXml(video.description || video.title)}</description>
      <media:rating scheme="urn:simple">adult</media:rating>
${thumbnail ? `      <media:thumbnail url="${thumbnail}" />\n` : ''}${row.web_mp4_key ? `      <media:content url="${siteUrl}/media/videos/${video.streamVideoId}/web.mp4" type="video/mp4" medium="video"${video.durationSeconds ? ` duration="${Math.round(video.durationSeconds)}"` : ''} />\n` : ''}    </item>`;
    })
    .join('\n');
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>${escapeXml(siteName)}: recent videos</title>
    <link>${siteUrl}/</link>
    <atom:link href="${siteUrl}/feed.xml" rel="self" type="application/rss+xml" />
    <description>The newest Sissy, Beta and Censor videos on ${escapeXml(siteName)}. Adults only (18+).</description>
    <language>en</language>
    <media:rating scheme="urn:simple">adult</media:rating>
${items}
  </channel>
</rss>
`;
  return new Response(body, {
    headers: { 'Content-Type': 'application/rss+xml; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
  });
}
