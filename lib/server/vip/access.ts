import 'server-only';

import { isVipNow } from '../accounts/dto';
import { requireMember, type Actor, type Authenticated } from '../auth/actor';
import { forbidden } from '../errors';

export const VIP_REQUIRED_MESSAGE = 'Daily tasks are for VIP members. Join Edge Trainer to unlock them.';

/** A member whose VIP has not ended (read from the database this request), or 401 / 403 with a message. */
export function requireVip(actor: Actor): Authenticated {
  const member = requireMember(actor);
  if (!isVipNow(member.user)) throw forbidden(VIP_REQUIRED_MESSAGE);
  return member;
}
