/**
 * The embed code the Share dialog offers for /embed/{streamVideoId}: an
 * <iframe> with its size. Every value is escaped for an HTML attribute and
 * the id for a URL path, although ids and the site's origin are safe today:
 * this text is pasted into other people's pages.
 */

import { escapeHtml } from '@/lib/html';

export const EMBED_WIDTH = 640;
export const EMBED_HEIGHT = 360;

/** The player's absolute address: the site's origin (no trailing slash needed) and the id as one path segment. */
export function embedUrl(siteUrl: string, streamVideoId: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/embed/${encodeURIComponent(streamVideoId)}`;
}

export interface EmbedOptions {
  title: string;
  width?: number;
  height?: number;
}

/** `<iframe src="…/embed/{id}" width="640" height="360" title="…" allow="fullscreen" …></iframe>` */
export function embedSnippet(
  siteUrl: string,
  streamVideoId: string,
  { title, width = EMBED_WIDTH, height = EMBED_HEIGHT }: EmbedOptions,
): string {
  const size = (value: number) => String(Math.max(1, Math.round(Number.isFinite(value) ? value : 1)));
  return (
    `<iframe src="${escapeHtml(embedUrl(siteUrl, streamVideoId))}" width="${size(width)}" height="${size(height)}" ` +
    `title="${escapeHtml(title)}" frameborder="0" allow="fullscreen; picture-in-picture" allowfullscreen loading="lazy"></iframe>`
  );
}
