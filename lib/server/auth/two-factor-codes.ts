import 'server-only';

import { createHash, createHmac, randomInt } from 'node:crypto';

import { sealData, unsealData } from 'iron-session';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

import { getConfig, getSessionSecret } from '@/lib/config/server';

/**
 * The cryptography of two-factor authentication (decision 018), apart from
 * the database: TOTP per RFC 6238 through otpauth (SHA-1, 6 digits, 30 s, the
 * parameters every authenticator app supports), sealed secrets and
 * challenges, and recovery codes.
 */

export const TOTP_PERIOD_SECONDS = 30;
/** Codes one step either side of now are accepted: a phone's clock a few seconds off, or a code typed as it changed. */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
/** How long the code step of a login may take after the password step. */
export const CHALLENGE_TTL_SECONDS = 5 * 60;

function totp(secretBase32: string, label = 'account'): TOTP {
  return new TOTP({
    issuer: getConfig().siteName,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new random secret (160 bits, RFC 4226's recommendation), base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function totpUri(secretBase32: string, label: string): string {
  return totp(secretBase32, label).toString();
}

/**
 * The QR code of a URI as one SVG path (a square per dark module) and its
 * size in modules. The page draws it as a React <svg>, so no markup from
 * the server is injected and the CSP needs no data: images.
 */
export function qrPath(uri: string): { size: number; path: string } {
  const { modules } = QRCode.create(uri, { errorCorrectionLevel: 'M' });
  let path = '';
  for (let y = 0; y < modules.size; y++) {
    for (let x = 0; x < modules.size; x++) if (modules.get(x, y)) path += `M${x} ${y}h1v1h-1z`;
  }
  return { size: modules.size, path };
}

/** The time step a valid code belongs to, or null when the code is not valid now. */
export function matchingStep(secretBase32: string, code: string, now = Date.now()): number | null {
  const t = totp(secretBase32);
  const delta = t.validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  return delta === null ? null : t.counter({ timestamp: now }) + delta;
}

/** The code for a time step (tests and the e2e helpers compute codes the same way an app does). */
export function codeForStep(secretBase32: string, step: number): string {
  return totp(secretBase32).generate({ timestamp: step * TOTP_PERIOD_SECONDS * 1000 });
}

/*
 * Secrets are sealed with the session secret (iron-session: AES-256-CBC +
 * HMAC-SHA-256), not VERIFICATION_KEY: the session secret always exists, and
 * whoever holds it can already forge any session, so it protects nothing
 * less; VERIFICATION_KEY is optional outside production and guards documents.
 */
export function sealSecret(secretBase32: string): Promise<string> {
  return sealData({ totp: secretBase32 }, { password: getSessionSecret(), ttl: 0 });
}

export async function openSecret(sealed: string): Promise<string | null> {
  try {
    const data = await unsealData<{ totp?: unknown }>(sealed, { password: getSessionSecret(), ttl: 0 });
    return typeof data.totp === 'string' ? data.totp : null;
  } catch {
    return null;
  }
}

/** Recovery codes: 10 letters and digits without look-alikes (about 50 bits each), shown as xxxxx-xxxxx. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let code = '';
    for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** What is compared: case, spaces and hyphens do not matter. */
export function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/** Stored form: an HMAC under the session secret, so a copy of the database alone cannot be searched for codes. */
export function hashRecoveryCode(userId: string, code: string): string {
  return createHmac('sha256', getSessionSecret())
    .update(`${userId}:${normaliseRecoveryCode(code)}`)
    .digest('hex');
}

/**
 * The login challenge: what the password step hands to the code step. Bound
 * to the user, their token version and their password hash (a password
 * change or ban in between voids it), and dated here rather than by
 * iron-session's ttl so an expired challenge can be told apart from a forged one.
 */
export interface ChallengeClaims {
  uid: string;
  ver: number;
  pw: string;
  exp: number;
}

export const passwordFingerprint = (passwordHash: string) =>
  createHash('sha256').update(passwordHash).digest('base64url').slice(0, 22);

export function sealChallenge(
  user: { id: string; tokenVersion: number; passwordHash: string },
  now = Date.now(),
): Promise<string> {
  const claims: ChallengeClaims & { purpose: 'two-factor' } = {
    purpose: 'two-factor',
    uid: user.id,
    ver: user.tokenVersion,
    pw: passwordFingerprint(user.passwordHash),
    exp: now + CHALLENGE_TTL_SECONDS * 1000,
  };
  return sealData(claims, { password: getSessionSecret(), ttl: 0 });
}

/** The claims of a challenge, or null when it is forged or not a challenge at all (a session token is not one). */
export async function openChallenge(challenge: string): Promise<ChallengeClaims | null> {
  if (!challenge || challenge.length > 4096) return null;
  try {
    const data = await unsealData<Partial<ChallengeClaims> & { purpose?: string }>(challenge, {
      password: getSessionSecret(),
      ttl: 0,
    });
    if (
      data.purpose !== 'two-factor' ||
      typeof data.uid !== 'string' ||
      typeof data.ver !== 'number' ||
      typeof data.pw !== 'string' ||
      typeof data.exp !== 'number'
    )
      return null;
    return { uid: data.uid, ver: data.ver, pw: data.pw, exp: data.exp };
  } catch {
    return null;
  }
}
