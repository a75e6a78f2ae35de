import 'server-only';

import type { UserDto } from '@/lib/api-types';
import type { User } from '@/lib/db/schema';

export type { UserDto };

export function toUserDto(user: User): UserDto {
  return {
    _id: user.id,
    username: user.username,
    email: user.email,
    isAdmin: user.isAdmin,
    isVIP: user.isVip,
    autoPlayVideos: user.autoPlayVideos,
    tasks: user.tasks,
    lastTaskCompleted: user.lastTaskCompleted?.toISOString() ?? null,
    profilePhotoUrl: user.profilePhotoKey ? `/media/avatars/${user.profilePhotoKey}-256.webp` : null,
    emailVerified: Boolean(user.emailVerifiedAt),
    createdAt: user.createdAt.toISOString(),
  };
}
