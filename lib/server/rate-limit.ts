import 'server-only';

import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';

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
  loginPerIp: { points: 15, duration: 5 * 60 },
  loginPerAccount: { points: 10, duration: 15 * 60 },
  registerPerIp: { points: 5, duration: 10 * 60 },
  resendPerIp: { points: 5, duration: 15 * 60 },
  /** The spec's 60-second cooldown between verification emails to one address. */
  resendPerAddress: { points: 1, duration: 60 },
  /** Reports (lib/server/community/reports.ts): visitors per address, members per account. */
  reportPerIp: { points: 10, duration: 60 * 60 },
  reportPerMember: { points: 20, duration: 60 * 60 },
  /** Comments (lib/server/community/comments.ts), per member: a burst limit and a daily one. */
  commentPerMinute: { points: 5, duration: 60 },
  commentPerDay: { points: 60, duration: 24 * 60 * 60 },
  /** VIP checkouts (lib/server/vip/checkout.ts), per member: room for changing one's mind, not for filling the table. */
  checkoutPerMember: { points: 10, duration: 10 * 60 },
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

/** Counts one attempt; throws a 429 with Retry-After when the budget is spent. */
export async function consume(name: LimitName, key: string, message?: string): Promise<void> {
  try {
    await (await limiter(name)).consume(key.toLowerCase());
  } catch (error) {
    if (error instanceof RateLimiterRes) throw tooManyRequests(Math.max(1, Math.ceil(error.msBeforeNext / 1000)), message);
    throw error;
  }
}

/** Forgets a key's count (a successful login clears its failures). */
export async function reset(name: LimitName, key: string): Promise<void> {
  await (await limiter(name)).delete(key.toLowerCase());
}

/** For tests: forget the limiter objects (each test database gets fresh ones). */
export function resetLimiters(): void {
  limiters.clear();
}
