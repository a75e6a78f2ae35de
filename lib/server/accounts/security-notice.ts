import 'server-only';

import { ACCOUNT_PATHS } from '@/lib/account-paths';
import { getConfig } from '@/lib/config/server';
import type { User } from '@/lib/db/schema';
import { logger } from '@/lib/server/log';

import { linkEmail, sendMail } from '../mail';

const log = logger('mail');

export type TwoFactorChange = 'turned-on' | 'turned-off' | 'recovery-codes-replaced';

const SUBJECTS: Record<TwoFactorChange, (siteName: string) => string> = {
  'turned-on': (siteName) => `${siteName}: two-factor authentication was turned on`,
  'turned-off': (siteName) => `${siteName}: two-factor authentication was turned off`,
  'recovery-codes-replaced': (siteName) => `${siteName}: your recovery codes were replaced`,
};

const WHAT_HAPPENED: Record<TwoFactorChange, string> = {
  'turned-on':
    'Two-factor authentication was turned on for your account: from now on, logging in needs your password and a code from an authenticator app.',
  'turned-off': 'Two-factor authentication was turned off for your account: logging in needs only your password now.',
  'recovery-codes-replaced': 'The recovery codes of your account were replaced: the old ones no longer work.',
};

/**
 * The member hears of every change to their two-factor authentication
 * (lib/server/accounts/two-factor.ts). Each change needs the password and a
 * live session, so one they did not make means both are known to someone
 * else: the mail says what to do. A mail that cannot go out is logged; the
 * change stands, as for the other account notices.
 */
export async function tellOwnerOfTwoFactorChange(user: Pick<User, 'username' | 'email'>, change: TwoFactorChange): Promise<void> {
  const { siteName, siteUrl, operator } = getConfig();
  try {
    await sendMail(
      linkEmail({
        to: user.email,
        subject: SUBJECTS[change](siteName),
        greeting: `Hi ${user.username},`,
        lines: [
          `${WHAT_HAPPENED[change]} This happened on ${new Date().toUTCString()}.`,
          `If this was you, there is nothing more to do. If this wasn't you, someone knows your password and has a session of yours: reset your password now (that logs every device out), then write to ${operator.email} so we can check your two-factor settings with you.`,
        ],
        action: 'Reset my password',
        url: `${siteUrl}/forgot-password`,
        footer: `We send this email whenever two-factor authentication changes on your account. You can also end all your sessions in Settings, under Security: ${siteUrl}${ACCOUNT_PATHS.security}`,
      }),
    );
  } catch (error) {
    log.error({ err: error }, 'could not send a two-factor change notice');
  }
}
