/**
 * Which of our videos a notice is about, from what the sender pasted: a
 * video page or embed address on this site (with or without the scheme,
 * any query or fragment), a path (/video/abc), or the bare stream id.
 * Anything else (another site's address, another page of ours, a path with
 * extra segments) is null, so a notice always names exactly one video.
 * No imports: the form checks it in the browser too.
 */
const STREAM_ID = /^[A-Za-z0-9_-]{1,32}$/;

export const VIDEO_REFERENCE_MESSAGE =
  'Enter the address of one video on this site (the link of its page, for example /video/abc123) or its id.';

export function parseVideoReference(input: string, siteUrl: string): string | null {
  const value = input.trim();
  if (!value || value.length > 500) return null;
  if (STREAM_ID.test(value)) return value;
  let url: URL;
  const site = new URL(siteUrl);
  try {
    if (value.startsWith('/')) url = new URL(value, site);
    else if (/^https?:\/\//i.test(value)) url = new URL(value);
    else url = new URL(`https://${value}`);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  const host = (name: string) => name.toLowerCase().replace(/^www\./, '');
  if (host(url.hostname) !== host(site.hostname)) return null;
  const match = /^\/(?:video|embed)\/([A-Za-z0-9_-]{1,32})\/?$/.exec(url.pathname);
  return match ? match[1]! : null;
}
