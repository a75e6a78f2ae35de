import 'server-only';

import { createHmac, timingSafeEqual } from 'node:crypto';

import { getConfig, getSessionSecret } from '@/lib/config/server';

import { decisionLink } from './decisions';

/**
 * A link that lets the member a decision is about read its statement of
 * reasons and appeal it without logging in: a banned member cannot log in,
 * and DSA Art. 17 and 20 still owe them the reasons and an appeal. The
 * signature covers one purpose, one decision, its member and an expiry (the
 * end of the appeal window), so it opens nothing else: not another decision,
 * not the account, not the site.
 */
export interface DecisionKey {
  e: string;
  k: string;
}

const sign = (decisionId: string, subjectUserId: string, expires: string) =>
  createHmac('sha256', getSessionSecret())
    .update(`decision-access\n${decisionId}\n${subjectUserId}\n${expires}`)
    .digest('base64url');

export function decisionKey(decisionId: string, subjectUserId: string, expiresAt: Date): DecisionKey {
  const e = String(Math.floor(expiresAt.getTime() / 1000));
  return { e, k: sign(decisionId, subjectUserId, e) };
}

/** The absolute link for an email. */
export function signedDecisionUrl(decisionId: string, subjectUserId: string, expiresAt: Date): string {
  const { e, k } = decisionKey(decisionId, subjectUserId, expiresAt);
  return `${getConfig().siteUrl}${decisionLink(decisionId)}?e=${e}&k=${k}`;
}

/** 'valid', 'expired' (genuine but past its date) or 'invalid' (forged, altered, for another decision or member). */
export function checkDecisionKey(
  decisionId: string,
  subjectUserId: string | null,
  key: Partial<DecisionKey>,
  now = Date.now(),
): 'valid' | 'expired' | 'invalid' {
  if (!subjectUserId || !key.e || !key.k) return 'invalid';
  const expected = Buffer.from(sign(decisionId, subjectUserId, key.e));
  const given = Buffer.from(key.k);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
  return Number(key.e) * 1000 > now ? 'valid' : 'expired';
}
