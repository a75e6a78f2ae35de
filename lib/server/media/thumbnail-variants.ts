import 'server-only';

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import sharp from 'sharp';

import { THUMBNAIL_WIDTHS } from '@/lib/media/thumbnails';

import { thumbnailVariantName } from '../storage';

/** The JPEG is ours (ffmpeg's 640 px frame); a bound anyway, so a bug upstream cannot make sharp decode a huge picture. */
const MAX_INPUT_PIXELS = 4096 * 4096;

/**
 * Writes the WebP widths of a thumbnail into outDir (thumbnail-320.webp …;
 * beside the JPEG by default) and returns their version: the first 16 hex digits of the JPEG's SHA-256, so
 * a new thumbnail gets new URLs and a cached one is never stale. Quality 70
 * is where these frames stop looking different from the JPEG at a third of
 * its size.
 */
export async function makeThumbnailVariants(jpegPath: string, outDir = path.dirname(jpegPath)): Promise<string> {
  const jpeg = await readFile(jpegPath);
  const source = sharp(jpeg, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
  for (const width of THUMBNAIL_WIDTHS) {
    await source
      .clone()
      .resize({ width, withoutEnlargement: true })
      .webp({ quality: 70, effort: 5 })
      .toFile(path.join(outDir, thumbnailVariantName(width)));
  }
  return createHash('sha256').update(jpeg).digest('hex').slice(0, 16);
}
