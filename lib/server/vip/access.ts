import 'server-only';

import type { NextRequest } from 'next/server';

import { isVipNow } from '../accounts/dto';
import { requireUser, type Authenticated } from '../auth/session';
import { forbidden } from '../errors';

export const VIP_REQUIRED_MESSAGE = 'Daily tasks are for VIP members. Join Edge Trainer to unlock them.';

/** A member whose VIP has not ended, or 401 / 403 with a message. */
export async function requireVip(request: NextRequest): Promise<Authenticated> {
  const auth = await requireUser(request);
  if (!isVipNow(auth.user)) throw forbidden(VIP_REQUIRED_MESSAGE);
  return auth;
}
