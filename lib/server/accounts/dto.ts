import 'server-only';

import type { User } from '@/lib/db/schema';

/** The user as the API shows it to its owner (spec section 3 plus what the client needs). */
export interface UserDto {
  _id: string;
  username: string;
  email: string;
  isAdmin: boolean;
  isVIP: boolean;
  autoPlayVideos: boolean;
  tasks: number;
  lastTaskCompleted: string | null;
  profilePhotoUrl: string | null;
  emailVerified: boolean;
  createdAt: string;
}

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
