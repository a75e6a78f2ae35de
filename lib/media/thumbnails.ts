/**
 * The responsive thumbnail: WebP copies of the 640 px JPEG in three widths,
 * named by a hash of the JPEG they were made from (decision 027). Since a
 * URL names exactly one content, public ones are cached for a year
 * (app/media/videos/…/route.ts). Shared by the server (DTOs, the media route)
 * and the cards, so URLs are built in one place.
 */

/** Widths made by processing, ascending; the last is the JPEG's own width. */
export const THUMBNAIL_WIDTHS = [320, 480, 640] as const;
export type ThumbnailWidth = (typeof THUMBNAIL_WIDTHS)[number];

/** A version: the first 16 hex digits of the SHA-256 of the JPEG. */
export const THUMBNAIL_VERSION = /^[0-9a-f]{16}$/;

/** The file name a variant has in its video's media URL: thumbnail-{version}-{width}.webp. */
export const THUMBNAIL_VARIANT_FILE = /^thumbnail-([0-9a-f]{16})-(320|480|640)\.webp$/;

export const thumbnailVariantFile = (version: string, width: ThumbnailWidth) => `thumbnail-${version}-${width}.webp`;

/**
 * The `srcset` of a video's thumbnail, or null when it has no variants
 * (processed before they existed): the card then shows the JPEG alone.
 */
export function thumbnailSrcSet(streamVideoId: string, version: string | null): string | null {
  if (version === null || !THUMBNAIL_VERSION.test(version)) return null;
  return THUMBNAIL_WIDTHS.map((width) => `/media/videos/${streamVideoId}/${thumbnailVariantFile(version, width)} ${width}w`).join(
    ', ',
  );
}

/**
 * The largest variant's URL (the video page's poster and its preload), or
 * null without variants. A 412 px phone at 1.75× wants all 640 of them.
 */
export function thumbnailPosterUrl(streamVideoId: string, version: string | null): string | null {
  if (version === null || !THUMBNAIL_VERSION.test(version)) return null;
  return `/media/videos/${streamVideoId}/${thumbnailVariantFile(version, 640)}`;
}

/**
 * How wide a card's picture is drawn, for the browser to pick from the
 * srcset: one column under 560 px, then two, three, and about 300 px from
 * four columns on (components/videos/videos.css: columns of at least 250 px).
 */
export const CARD_IMAGE_SIZES = '(max-width: 560px) 100vw, (max-width: 840px) 50vw, (max-width: 1120px) 33vw, 300px';
