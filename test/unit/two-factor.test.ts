/**
 * Two-factor codes (decision 018): RFC 6238's own test vector, the window
 * and step arithmetic the reuse check relies on, sealing, recovery codes,
 * and the input schemas against hostile text.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
  codeForStep,
  hashRecoveryCode,
  matchingStep,
  newRecoveryCodes,
  newTotpSecret,
  normaliseRecoveryCode,
  openChallenge,
  openSecret,
  qrPath,
  sealChallenge,
  sealSecret,
  totpUri,
} from '@/lib/server/auth/two-factor-codes';
import { disableTwoFactorSchema, totpCodeSchema, twoFactorLoginSchema, twoFactorSetupSchema } from '@/lib/validation/two-factor';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-2fa-unit-'));
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

// RFC 6238 appendix B: the ASCII secret "12345678901234567890", SHA-1, T = 59 s → 94287082 (8 digits), so 287082 in 6.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP codes', () => {
  it('match RFC 6238’s test vector', () => {
    expect(codeForStep(RFC_SECRET, 1)).toBe('287082');
    expect(matchingStep(RFC_SECRET, '287082', 59_000)).toBe(1);
  });

  it('accept one step either side of now and report which step, nothing further', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const now = 1_800_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(matchingStep(secret, codeForStep(secret, step), now)).toBe(step);
    expect(matchingStep(secret, codeForStep(secret, step - 1), now)).toBe(step - 1);
    expect(matchingStep(secret, codeForStep(secret, step + 1), now)).toBe(step + 1);
    expect(matchingStep(secret, codeForStep(secret, step + 2), now)).toBeNull();
    expect(matchingStep(secret, codeForStep(secret, step - 2), now)).toBeNull();
    // Another secret's code is not this one's (1 in a million chance it is; the vector secret makes it fixed).
    expect(
      matchingStep(secret, codeForStep(RFC_SECRET, step), now) === null ||
        codeForStep(RFC_SECRET, step) === codeForStep(secret, step),
    ).toBe(true);
  });

  it('builds an otpauth URI and a QR path for it', () => {
    const uri = totpUri(RFC_SECRET, 'me@example.org');
    expect(uri).toMatch(/^otpauth:\/\/totp\/.*me%40example\.org\?.*secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ/);
    const qr = qrPath(uri);
    expect(qr.size).toBeGreaterThanOrEqual(21);
    expect(qr.path).toMatch(/^(M\d+ \d+h1v1h-1z)+$/);
  });
});

describe('sealing', () => {
  it('seals a secret so it is not readable, and refuses tampering', async () => {
    const sealed = await sealSecret(RFC_SECRET);
    expect(sealed).not.toContain(RFC_SECRET);
    expect(await openSecret(sealed)).toBe(RFC_SECRET);
    expect(await openSecret(`${sealed.slice(0, -2)}xx`)).toBeNull();
    expect(await openSecret('not sealed')).toBeNull();
  });

  it('dates a challenge itself, and a secret is not a challenge', async () => {
    const user = { id: 'u1', tokenVersion: 3, passwordHash: '$argon2id$hash' };
    const claims = await openChallenge(await sealChallenge(user, 1_000));
    expect(claims).toMatchObject({ uid: 'u1', ver: 3, exp: 1_000 + 5 * 60 * 1000 });
    expect(await openChallenge(await sealSecret(RFC_SECRET))).toBeNull();
    expect(await openChallenge('x'.repeat(5000))).toBeNull();
  });
});

describe('recovery codes', () => {
  it('are ten distinct codes without look-alike characters, hashed per member, typed any way', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
    expect(normaliseRecoveryCode(' ABCDE 23456 ')).toBe('abcde23456');
    expect(hashRecoveryCode('u1', 'abcde-23456')).toBe(hashRecoveryCode('u1', 'ABCDE 23456'));
    expect(hashRecoveryCode('u1', 'abcde-23456')).not.toBe(hashRecoveryCode('u2', 'abcde-23456'));
  });
});

describe('two-factor inputs', () => {
  it('take a 6-digit code or a recovery code, spaces ignored, and refuse anything else with a sentence', () => {
    expect(twoFactorLoginSchema.parse({ challenge: 'c', code: ' 123 456 ' }).code).toBe('123456');
    expect(twoFactorLoginSchema.parse({ challenge: 'c', code: 'ABCDE-23456' }).code).toBe('ABCDE-23456');
    // Control characters are dropped as from all text (lib/validation/common.ts), so a NUL cannot reach the database.
    expect(twoFactorLoginSchema.parse({ challenge: 'c', code: '12\u00003456' }).code).toBe('123456');
    for (const code of ['', '12345', '1234567', '</script >', '🦋'.repeat(2000), 'abcde-2345']) {
      const result = twoFactorLoginSchema.safeParse({ challenge: 'c', code });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/^Enter /);
    }
    expect(twoFactorLoginSchema.safeParse({ code: '123456' }).success).toBe(false);
    expect(totpCodeSchema.safeParse({ currentPassword: 'pw', code: 'abcde-23456' }).success).toBe(false);
    expect(totpCodeSchema.parse({ currentPassword: 'pw', code: '000 000' }).code).toBe('000000');
    // Every change needs the current password: a session alone is not enough.
    for (const schema of [totpCodeSchema, disableTwoFactorSchema, twoFactorSetupSchema]) {
      expect(schema.safeParse({ code: '123456' }).error?.issues[0]?.message).toBe('Current password is required');
    }
  });
});
