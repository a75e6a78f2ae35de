import 'server-only';

import { badRequest } from '../errors';
import type { Authenticated } from '../auth/actor';
import { verifyPassword } from '../auth/passwords';
import { consume, reset } from '../rate-limit';

export const WRONG_CURRENT_PASSWORD = 'Your current password is incorrect.';
const TOO_MANY_WRONG_CURRENT_PASSWORDS = (wait: string) => `Too many wrong current passwords. Please wait ${wait} and try again.`;

/**
 * Changes to the account (email, password, two-factor, deletion) ask for the
 * current password, so a session alone (a cookie or token left open or
 * stolen) cannot make them. Wrong ones spend one budget per member, counted
 * up front like login failures (a burst cannot overshoot it), so a session is
 * no way to guess the password either; the right one clears the count. A
 * wrong one is a 400 naming the field, like any other wrong input of a form:
 * not a 401, which logs the member out (section 8 of the spec), nor a 403,
 * which says this caller may not use the route at all (the authorisation
 * matrix's contract).
 */
export async function confirmCurrentPassword(auth: Authenticated, currentPassword: string): Promise<void> {
  await consume('currentPasswordFailuresPerMember', auth.user.id, TOO_MANY_WRONG_CURRENT_PASSWORDS);
  if (!(await verifyPassword(currentPassword, auth.user.passwordHash)))
    throw badRequest(WRONG_CURRENT_PASSWORD, { field: 'currentPassword' });
  await reset('currentPasswordFailuresPerMember', auth.user.id);
}
