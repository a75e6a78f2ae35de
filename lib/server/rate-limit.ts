import 'server-only';

import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';

import { getConfig } from '@/lib/config/server';
import { getDb } from '@/lib/db';
import { rateLimits } from '@/lib/db/schema';

import { tooManyRequests } from './errors';

/**
 * Rate limits for account endpoints, counted in the database
 * (rate-limiter-flexible's Drizzle store), so every process shares one
 * count. Budgets follow PeerTube's from experience: generous for people who
 * mistype, tight for scripts.
 */
export const LIMITS = {
  /**
   * Failed logins (lib/server/accounts/index.ts). Per address (an IPv6 /64) across all accounts,
   * against credential stuffing; and per account from one address, so failures elsewhere never
   * lock a member out.
   */
  loginFailuresPerAddress: { points: 15, duration: 5 * 60 },
  loginFailuresPerAccountAddress: { points: 10, duration: 15 * 60 },
  registerPerIp: { points: 5, duration: 10 * 60 },
  resendPerIp: { points: 5, duration: 15 * 60 },
  /** The spec's 60-second cooldown between verification emails to one address. */
  resendPerAddress: { points: 1, duration: 60 },
  /**
   * Password reset requests (lib/server/accounts/password-reset.ts): per address (an IPv6 /64), against
   * scripts probing many emails; per email, so the form is no way to flood an inbox. Counted alike for
   * addresses with and without an account, so a 429 tells nothing.
   */
  forgotPasswordPerIp: { points: 10, duration: 60 * 60 },
  forgotPasswordPerEmail: { points: 3, duration: 60 * 60 },
  /** "Someone tried to sign up with your email" notices (lib/server/accounts/sign-up-notice.ts), per email: the form is no way to flood an inbox. */
  signUpNoticePerEmail: { points: 1, duration: 60 * 60 },
  /** Withdrawals of consent (lib/server/trust/consent-withdrawals.ts), per address, like visitors' reports: each one hides a video. */
  consentWithdrawalPerIp: { points: 10, duration: 60 * 60 },
  /**
   * Acknowledgements mailed to an address a visitor typed (notices, DMCA notices, withdrawals of consent;
   * lib/server/trust/mail.ts), per inbox whoever sends: with the per-address limits above, no way to flood
   * someone's inbox from many networks. A quiet skip: the notice itself is filed all the same.
   */
  acknowledgementsPerRecipient: { points: 3, duration: 24 * 60 * 60 },
  /** Reports (lib/server/reports/file.ts): visitors per address, members per account. */
  reportPerIp: { points: 10, duration: 60 * 60 },
  reportPerMember: { points: 20, duration: 60 * 60 },
  /** Public notices and DMCA notices (decision 016), per address: enough for a real sender, not for hiding the catalogue. */
  noticePerIp: { points: 10, duration: 60 * 60 },
  /** Comments (lib/server/community/comments.ts), per member: a burst limit and a daily one. */
  commentPerMinute: { points: 5, duration: 60 },
  commentPerDay: { points: 60, duration: 24 * 60 * 60 },
  /** VIP checkouts (lib/server/vip/checkout.ts), per member: room for changing one's mind, not for filling the table. */
  checkoutPerMember: { points: 10, duration: 10 * 60 },
  /** Wrong current passwords in settings (password and email changes), per member: an open session is no way to guess the password. */
  currentPasswordFailuresPerMember: { points: 5, duration: 15 * 60 },
  /**
   * Wrong two-factor codes (lib/server/accounts/two-factor.ts), per member: at login (after the right password) and in
   * Security settings. Ten guesses in 15 minutes against a million codes; the right code clears the count.
   */
  twoFactorFailuresPerMember: { points: 10, duration: 15 * 60 },
  /** Email changes per member: each one mails an address the member picks. */
  emailChangesPerMember: { points: 5, duration: 24 * 60 * 60 },
  // Per-member budgets for expensive actions (image or video work, cache purges, stored documents, jobs, notifications):
  // generous for a person, tight for a script. Over one: 429 with Retry-After and tooOften()'s message.
  /** Profile photo changes and removals (lib/server/accounts/profile-photo.ts): each re-encodes two images and purges every cached video page. */
  profilePhotoChangesPerMember: { points: 10, duration: 60 * 60 },
  /** Profile edits (the bio; lib/server/community/profiles.ts): a write to the member's row each. */
  profileEditsPerMember: { points: 30, duration: 60 * 60 },
  /** Uploads started in ten minutes (multipart and tus; lib/server/videos/upload.ts, resumable.ts), on top of UPLOADS_PER_DAY: a batch of files, not a flood. */
  uploadStartsPerMember: { points: 30, duration: 10 * 60 },
  /** Data exports built (lib/server/exports/index.ts): each is a job that zips everything the member has and mails them. */
  dataExportsPerMember: { points: 5, duration: 24 * 60 * 60 },
  /** Edits of one's own videos (lib/server/videos/manage.ts): an edit of a public video purges the cached public pages. */
  videoEditsPerMember: { points: 30, duration: 60 * 60 },
  /** Comment edits (lib/server/community/comments.ts): each purges the video's cached page (new comments have their own limits above). */
  commentEditsPerMember: { points: 20, duration: 10 * 60 },
  /** Performer records saved (lib/server/trust/performers.ts): each stores sealed ID documents and releases. */
  performerRecordsPerMember: { points: 20, duration: 60 * 60 },
  /** Identity verifications submitted (lib/server/verification/index.ts): each seals an ID document and a selfie. */
  verificationsPerMember: { points: 5, duration: 24 * 60 * 60 },
  /** Likes and unlikes (lib/server/community/likes.ts): each writes the video's count, a like may notify its owner. */
  likesPerMember: { points: 300, duration: 60 * 60 },
  /** Follows and unfollows (lib/server/community/follows.ts): a follow may notify. */
  followsPerMember: { points: 100, duration: 60 * 60 },
  /**
   * Progress writes (lib/server/videos/history.ts), per member: the player saves every 10 s while playing (60 in ten
   * minutes) and at each pause, seek or leaving; two tabs and a restless thumb fit, a script writing flat out does not.
   */
  progressWritesPerMember: { points: 240, duration: 10 * 60 },
  /** Video uploads started per member (lib/server/videos/upload.ts); UPLOADS_PER_DAY, read when the limiter is made. */
  uploadsPerMember: {
    get points() {
      return getConfig().uploadsPerDay;
    },
    duration: 24 * 60 * 60,
  },
} as const;

export type LimitName = keyof typeof LIMITS;

const limiters = new Map<LimitName, RateLimiterDrizzle>();

async function limiter(name: LimitName): Promise<RateLimiterDrizzle> {
  let found = limiters.get(name);
  if (!found) {
    found = new RateLimiterDrizzle({
      storeClient: await getDb(),
      schema: rateLimits,
      keyPrefix: name,
      ...LIMITS[name],
      // Rows are overwritten when their window ends; no background timer in the web process.
      clearExpiredByTimeout: false,
    });
    limiters.set(name, found);
  }
  return found;
}

/** A wait in words for 429 messages: "40 seconds", "15 minutes", "5 hours". */
export function waitInWords(seconds: number): string {
  const [amount, unit] =
    seconds < 60
      ? [seconds, 'second']
      : seconds < 3600
        ? [Math.ceil(seconds / 60), 'minute']
        : [Math.ceil(seconds / 3600), 'hour'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
}

/** A 429 message, fixed or naming the wait ("…try again in 15 minutes."). */
export type LimitMessage = string | ((wait: string) => string);

/** The 429 message of a per-member budget: what was done too often, and when to try again. */
export const tooOften =
  (doing: string): LimitMessage =>
  (wait) =>
    `You have ${doing} many times in a short time. Please try again in ${wait}.`;

/** Counts one attempt; throws a 429 with Retry-After when the budget is spent. */
export async function consume(name: LimitName, key: string, message?: LimitMessage): Promise<void> {
  try {
    await (await limiter(name)).consume(key.toLowerCase());
  } catch (error) {
    if (error instanceof RateLimiterRes) {
      const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      throw tooManyRequests(seconds, typeof message === 'function' ? message(waitInWords(seconds)) : message);
    }
    throw error;
  }
}

/** Counts one use if the budget allows; false when it is spent. For limits that must not show in the answer. */
export async function tryConsume(name: LimitName, key: string): Promise<boolean> {
  try {
    await (await limiter(name)).consume(key.toLowerCase());
    return true;
  } catch (error) {
    if (error instanceof RateLimiterRes) return false;
    throw error;
  }
}

/**
 * Gives back one point counted by consume(). Limits on failures count every
 * attempt up front, so parallel attempts cannot all pass before any failure
 * is recorded, and give the point back when the attempt succeeds.
 */
export async function giveBack(name: LimitName, key: string): Promise<void> {
  await (await limiter(name)).reward(key.toLowerCase());
}

/** Forgets a key's count (a successful login clears that account's failures from that address). */
export async function reset(name: LimitName, key: string): Promise<void> {
  await (await limiter(name)).delete(key.toLowerCase());
}

/** For tests: forget the limiter objects (each test database gets fresh ones). */
export function resetLimiters(): void {
  limiters.clear();
}
