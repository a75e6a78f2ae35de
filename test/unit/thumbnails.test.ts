import {
  THUMBNAIL_VARIANT_FILE,
  THUMBNAIL_WIDTHS,
  thumbnailPosterUrl,
  thumbnailSrcSet,
  thumbnailVariantFile,
} from '@/lib/media/thumbnails';

const VERSION = '0123456789abcdef';

describe('thumbnail srcset', () => {
  it('lists every WebP width with its w descriptor, smallest first', () => {
    expect(thumbnailSrcSet('abc123', VERSION)).toBe(
      '/media/videos/abc123/thumbnail-0123456789abcdef-320.webp 320w, /media/videos/abc123/thumbnail-0123456789abcdef-480.webp 480w, /media/videos/abc123/thumbnail-0123456789abcdef-640.webp 640w',
    );
  });

  it('gives none for a video processed before the variants existed, or a version that is not one', () => {
    expect(thumbnailSrcSet('abc123', null)).toBeNull();
    expect(thumbnailSrcSet('abc123', '../../etc/passwd')).toBeNull();
    expect(thumbnailSrcSet('abc123', VERSION.toUpperCase())).toBeNull();
    expect(thumbnailPosterUrl('abc123', null)).toBeNull();
  });

  it('takes the widest variant as the poster', () => {
    expect(thumbnailPosterUrl('abc123', VERSION)).toBe('/media/videos/abc123/thumbnail-0123456789abcdef-640.webp');
  });

  it('builds only names the media route accepts, and the route accepts no other width', () => {
    for (const width of THUMBNAIL_WIDTHS)
      expect(THUMBNAIL_VARIANT_FILE.exec(thumbnailVariantFile(VERSION, width))?.slice(1)).toEqual([VERSION, String(width)]);
    for (const name of [
      `thumbnail-${VERSION}-1280.webp`,
      `thumbnail-${VERSION}-320.webp/..`,
      `thumbnail-${VERSION}-320.jpg`,
      `thumbnail-${VERSION.slice(1)}-320.webp`,
      `thumbnail-${VERSION}-320.webp\0`,
    ]) {
      expect(THUMBNAIL_VARIANT_FILE.test(name)).toBe(false);
    }
  });
});
