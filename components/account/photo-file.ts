/** The image types the profile photo pickers offer; the server decides by the file's content (lib/server/accounts/photos.ts). */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'];
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;

export const PHOTO_NOT_IMAGE_MESSAGE = 'Profile photo must be an image file (JPEG, PNG, WebP, GIF or AVIF).';
export const PHOTO_TOO_LARGE_MESSAGE = 'Profile photo is too large. The limit is 5 MB.';

/** Why a chosen file cannot be a profile photo, checked before it is sent; null when it may be. */
export function photoFileProblem(file: File): string | null {
  if (!PHOTO_TYPES.includes(file.type)) return PHOTO_NOT_IMAGE_MESSAGE;
  if (file.size > PHOTO_MAX_BYTES) return PHOTO_TOO_LARGE_MESSAGE;
  return null;
}
