import { getConfig } from '@/lib/config/server';
import { isPlaceholder } from '@/lib/operator';

export const dynamic = 'force-dynamic';

/**
 * GET /.well-known/security.txt (and /security.txt) — where to report a
 * vulnerability (RFC 9116), from OPERATOR_EMAIL; 404 until it is set, so an
 * unconfigured site never publishes a placeholder. docs/security.md says what
 * happens with a report.
 */
export function GET(): Response {
  const { operator, siteUrl } = getConfig();
  if (isPlaceholder(operator.email))
    return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const expires = new Date(Date.now() + 180 * 24 * 60 * 60 * 1000);
  expires.setUTCHours(0, 0, 0, 0);
  const body = [
    `Contact: mailto:${operator.email}`,
    `Expires: ${expires.toISOString()}`,
    'Preferred-Languages: en',
    `Canonical: ${siteUrl}/.well-known/security.txt`,
    `Policy: ${siteUrl}/community-standards`,
    '',
  ].join('\n');
  return new Response(body, {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=86400' },
  });
}
