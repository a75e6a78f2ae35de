import 'server-only';

import type { UserDto } from '@/lib/api-types';
import type { User } from '@/lib/db/schema';

import { hasAdminRole } from '../auth/actor';

export type { UserDto };

/** VIP while the latest live entitlement has not ended (users.vip_until, kept by lib/server/vip). */
export function isVipNow(user: Pick<User, 'vipUntil'>, now = Date.now()): boolean {
  return user.vipUntil !== null && user.vipUntil.getTime() > now;
}

export function toUserDto(user: User): UserDto {
  return {
    _id: user.id,
    username: user.username,
    email: user.email,
    // The role, for the UI (the navbar's admin link); admin power is the actor layer's to grant.
    isAdmin: hasAdminRole(user),
    isVIP: isVipNow(user),
    autoPlayVideos: user.autoPlayVideos,
    tasks: user.tasks,
    lastTaskCompleted: user.lastTaskCompleted?.toISOString() ?? null,
    profilePhotoUrl: user.profilePhotoKey ? `/media/avatars/${user.profilePhotoKey}-256.webp` : null,
    emailVerified: Boolean(user.emailVerifiedAt),
    createdAt: user.createdAt.toISOString(),
  };
}
