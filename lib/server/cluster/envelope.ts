import 'server-only';

import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

import { z } from 'zod';

/**
 * The signed envelope of a cluster message (decision 022). Any role that can
 * connect to the database can pg_notify any channel, so a notification on
 * the channel proves nothing about who sent it: every message carries an
 * HMAC-SHA256 under a key derived from the session secret (which every web
 * process and worker of one site already shares), the sender's clock and a
 * sequence number. A receiver accepts a message only if the MAC matches
 * (compared in constant time), it was sent within MAX_AGE_MS of now, and its
 * sequence number is above the last one it accepted from that sender.
 *
 * Wire form: `<base64url MAC>.<JSON body>`, the MAC over the channel name and
 * the body, so a message cannot be moved to another channel either.
 */

/** How far a message's clock may be from the receiver's (delivery takes milliseconds; this allows for clock skew between hosts). */
export const MAX_AGE_MS = 60_000;

/** PostgreSQL refuses a notification payload of 8000 bytes or more; anything longer is not ours. */
export const MAX_PAYLOAD_BYTES = 7_999;

export const MAX_PREFIX_LENGTH = 1_024;
/** More prefixes than this in one message become one purge of everything (bridge.ts join()). */
export const MAX_PREFIXES = 32;
const MAC_LENGTH = 43; // 32 bytes in base64url, unpadded

const body = z
  .object({
    v: z.literal(1),
    from: z.string().min(1).max(200),
    seq: z.number().int().positive(),
    t: z.number().int().positive(),
    purge: z.array(z.string().startsWith('/').max(MAX_PREFIX_LENGTH)).max(MAX_PREFIXES),
    jobs: z.boolean(),
  })
  .strict();
export type EnvelopeBody = z.infer<typeof body>;

/** The bridge's key: its own, derived from the session secret, so it opens nothing else and nothing else opens it. */
export function clusterKey(sessionSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', sessionSecret, '', 'chrysalis cluster bridge v1', 32));
}

function mac(key: Buffer, channel: string, text: string): Buffer {
  return createHmac('sha256', key).update(`${channel}\n${text}`).digest();
}

export function sealMessage(key: Buffer, channel: string, message: EnvelopeBody): string {
  const text = JSON.stringify(message);
  return `${mac(key, channel, text).toString('base64url')}.${text}`;
}

export type Refusal = 'oversized' | 'forged' | 'malformed' | 'stale';

/** The body of an authentic, fresh message, or why it is refused (the sequence check is the receiver's). */
export function openMessage(
  key: Buffer,
  channel: string,
  payload: string,
  now = Date.now(),
): { ok: true; message: EnvelopeBody } | { ok: false; reason: Refusal } {
  if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) return { ok: false, reason: 'oversized' };
  const dot = payload.indexOf('.');
  const given = dot === MAC_LENGTH ? Buffer.from(payload.slice(0, dot), 'base64url') : undefined;
  const text = payload.slice(dot + 1);
  if (!given || given.length !== 32 || !timingSafeEqual(given, mac(key, channel, text))) return { ok: false, reason: 'forged' };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const parsed = body.safeParse(data);
  if (!parsed.success) return { ok: false, reason: 'malformed' };
  if (Math.abs(now - parsed.data.t) > MAX_AGE_MS) return { ok: false, reason: 'stale' };
  return { ok: true, message: parsed.data };
}
