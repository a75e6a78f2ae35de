import 'server-only';

import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import sharp, { type Sharp } from 'sharp';

import { getConfig } from '@/lib/config/server';

import { ApiError, badRequest } from '../errors';

export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
export const AVATAR_SIZES = [256, 64] as const;
const PHOTO_NOT_IMAGE = 'Profile photo must be an image file (JPEG, PNG, WebP, GIF or AVIF).';

export function avatarDir(): string {
  return path.join(getConfig().dataDir, 'media', 'avatars');
}

/**
 * Checks a profile photo by its content (not its name or declared type),
 * then re-encodes it to square WebP avatars. Re-encoding drops every byte of
 * the original file, including EXIF and GPS metadata. Returns the key the
 * files are stored under.
 */
export async function storeProfilePhoto(file: File): Promise<string> {
  if (file.size > MAX_PHOTO_BYTES) throw new ApiError(413, 'Profile photo is too large. The limit is 5 MB.');
  if (file.size === 0) throw badRequest(PHOTO_NOT_IMAGE, { field: 'profilePhoto' });
  const input = Buffer.from(await file.arrayBuffer());
  let image: Sharp;
  try {
    image = sharp(input, { limitInputPixels: 40_000_000, failOn: 'error' });
    const { format, width, height } = await image.metadata();
    if (!format || !['jpeg', 'png', 'webp', 'gif', 'avif', 'heif'].includes(format) || !width || !height)
      throw new Error(`unsupported ${format}`);
  } catch {
    throw badRequest(PHOTO_NOT_IMAGE, { field: 'profilePhoto' });
  }
  const key = randomBytes(12).toString('hex');
  const dir = avatarDir();
  await mkdir(dir, { recursive: true });
  try {
    for (const size of AVATAR_SIZES) {
      const output = await image.clone().rotate().resize(size, size, { fit: 'cover' }).webp({ quality: 82 }).toBuffer();
      const target = path.join(dir, `${key}-${size}.webp`);
      await writeFile(`${target}.tmp`, output);
      await rename(`${target}.tmp`, target);
    }
  } catch {
    await removeProfilePhoto(key);
    throw badRequest(PHOTO_NOT_IMAGE, { field: 'profilePhoto' });
  }
  return key;
}

export async function removeProfilePhoto(key: string): Promise<void> {
  await Promise.all(
    AVATAR_SIZES.flatMap((size) => [`${key}-${size}.webp`, `${key}-${size}.webp.tmp`]).map((name) =>
      rm(path.join(avatarDir(), name), { force: true }),
    ),
  );
}
