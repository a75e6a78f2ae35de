import 'server-only';

import type { Database } from '@/lib/db';
import type { Video } from '@/lib/db/schema';

import { conflict } from '../errors';
import { uploaderVerifiedCheck } from '../verification';

import { performerRecordsCheck } from './performers';

import { noActiveTakedown, noOpenUrgentNotice } from './notice-checks';

/**
 * What must be true before a video may be approved (made public), each
 * duty one check: the uploader is a verified adult, every performer's age
 * and consent record is complete, no urgent notice, takedown or withdrawn
 * consent is open on it. A check returns the sentence the admin sees, or
 * null when it passes. Every path that approves a video (moderation, bulk
 * moderation, an appeal, a restore after a counter-notice) goes through
 * assertApprovable.
 */
export type ApprovalCheck = (db: Database, video: Video) => Promise<string | null>;

const CHECKS: readonly ApprovalCheck[] = [uploaderVerifiedCheck, performerRecordsCheck, noOpenUrgentNotice, noActiveTakedown];

/** Every reason the video cannot be approved now, in the order above (empty when it can). */
export async function approvalBlockers(db: Database, video: Video): Promise<string[]> {
  const reasons: string[] = [];
  for (const check of CHECKS) {
    const reason = await check(db, video);
    if (reason) reasons.push(reason);
  }
  return reasons;
}

/** 409 with the first reason the video cannot be approved. */
export async function assertApprovable(db: Database, video: Video): Promise<void> {
  const [first] = await approvalBlockers(db, video);
  if (first) throw conflict(first);
}
