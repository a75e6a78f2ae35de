import 'server-only';

import { eq, sql } from 'drizzle-orm';

import { getDb } from '@/lib/db';
import { users } from '@/lib/db/schema';
import { purgePublicPages } from '@/lib/events';

import { requireMember, type Actor } from '../auth/actor';
import { badRequest } from '../errors';
import { consume, tooOften } from '../rate-limit';

import { toUserDto, type UserDto } from './dto';
import { removeProfilePhoto, storeProfilePhoto } from './photos';

export const PHOTO_UPDATED_MESSAGE = 'Profile photo updated.';
export const PHOTO_REMOVED_MESSAGE = 'Profile photo removed.';
const PHOTO_TOO_OFTEN = tooOften('changed your profile photo');

/**
 * Puts a new key (or none) on the member's row and gives back the key it
 * replaced, in one transaction that locks the row, so two changes at once
 * each learn the key they replaced and no file is left behind or deleted twice.
 */
async function swapPhotoKey(userId: string, key: string | null) {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ key: users.profilePhotoKey }).from(users).where(eq(users.id, userId)).for('update');
    const [after] = await tx
      .update(users)
      .set({ profilePhotoKey: key, updatedAt: sql`now()` })
      .where(eq(users.id, userId))
      .returning();
    return { previous: before?.key ?? null, user: after! };
  });
}

/** Avatars show in comments on cached video pages: drop those pages, and the old files. */
async function afterSwap(previous: string | null): Promise<void> {
  if (previous) await removeProfilePhoto(previous);
  purgePublicPages('/video/');
}

/**
 * A new profile photo with the sign-up checks (lib/server/accounts/photos.ts:
 * decided by content, at most 5 MB, re-encoded to WebP without metadata);
 * the old photo's files are deleted.
 */
export async function changeProfilePhoto(actor: Actor, file: File | null): Promise<{ message: string; user: UserDto }> {
  const member = requireMember(actor);
  if (!file) throw badRequest('Choose an image to use as your profile photo.', { field: 'profilePhoto' });
  await consume('profilePhotoChangesPerMember', member.user.id, PHOTO_TOO_OFTEN);
  const key = await storeProfilePhoto(file);
  let swapped;
  try {
    swapped = await swapPhotoKey(member.user.id, key);
  } catch (error) {
    await removeProfilePhoto(key);
    throw error;
  }
  await afterSwap(swapped.previous);
  return { message: PHOTO_UPDATED_MESSAGE, user: toUserDto(swapped.user) };
}

/** Back to the letter avatar; the photo's files are deleted. Removing no photo is no error. */
export async function deleteProfilePhoto(actor: Actor): Promise<{ message: string; user: UserDto }> {
  const member = requireMember(actor);
  await consume('profilePhotoChangesPerMember', member.user.id, PHOTO_TOO_OFTEN);
  const swapped = await swapPhotoKey(member.user.id, null);
  await afterSwap(swapped.previous);
  return { message: PHOTO_REMOVED_MESSAGE, user: toUserDto(swapped.user) };
}
