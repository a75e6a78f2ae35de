import 'server-only';

import { getConfig } from '@/lib/config/server';
import type { User } from '@/lib/db/schema';

import { linkEmail, sendMail } from '../mail';
import { tryConsume } from '../rate-limit';
import { logger } from '@/lib/server/log';

const log = logger('mail');

/**
 * A sign-up with an email that already has an account gets the answer a new
 * account gets (register() in ./index.ts), so the form tells nobody who is a
 * member here. The owner of the address hears of it instead, at most once an
 * hour: a quiet skip, since a refusal would give the answer away.
 */
export async function tellOwnerOfSignUpAttempt(owner: Pick<User, 'username' | 'email'>): Promise<void> {
  if (!(await tryConsume('signUpNoticePerEmail', owner.email))) return;
  const { siteName, siteUrl } = getConfig();
  const notice = linkEmail({
    to: owner.email,
    subject: `Someone tried to sign up for ${siteName} with your email`,
    greeting: `Hi ${owner.username},`,
    lines: [
      `Someone just tried to create a new ${siteName} account with this email address. It already belongs to your account, so no new account was made.`,
      'If that was you, you can simply log in with this address and your password. If you have not confirmed your address yet, the login page lets you ask for a new verification email.',
    ],
    action: 'Log in',
    url: `${siteUrl}/login`,
    footer: 'If it was not you, you can ignore this email: nobody can use your account without your password.',
  });
  try {
    await sendMail(notice);
  } catch (error) {
    log.error({ err: error }, 'could not send a sign-up notice');
  }
}
