import 'server-only';

import { argon2 as argon2Callback, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * Password hashing with argon2id from Node's own crypto (Node ≥ 24.7), in the
 * standard PHC string format, so hashes stay readable by any argon2 library.
 *
 * Cost: OWASP's first recommended argon2id setting (19 MiB, 2 passes, 1 lane),
 * about 40 ms per hash on our machines. It runs on libuv's thread pool, so
 * hashing never blocks the event loop. Stored parameters travel with each
 * hash: raising the cost later only needs a rehash on next login.
 */
const argon2 = promisify(argon2Callback);

export const HASH_PARAMS = { memory: 19_456, passes: 2, parallelism: 1, tagLength: 32 } as const;

const b64 = (buffer: Buffer) => buffer.toString('base64').replace(/=+$/, '');

async function derive(
  password: string,
  nonce: Buffer,
  params: { memory: number; passes: number; parallelism: number; tagLength: number },
) {
  return argon2('argon2id', { message: Buffer.from(password.normalize('NFC'), 'utf8'), nonce, ...params });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, HASH_PARAMS);
  const { memory: m, passes: t, parallelism: p } = HASH_PARAMS;
  return `$argon2id$v=19$m=${m},t=${t},p=${p}$${b64(salt)}$${b64(hash)}`;
}

const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = PHC.exec(stored);
  if (!match) return false;
  const [, m, t, p, salt, hash] = match as unknown as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), {
    memory: Number(m),
    passes: Number(t),
    parallelism: Number(p),
    tagLength: expected.length,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A real hash of a random password, computed once. Login checks unknown
 * emails against it so they take as long as wrong passwords: response time
 * does not reveal which addresses have accounts.
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
}

/** The 10,000 most common passwords (zxcvbn's ranked list from real leaks). */
const COMMON = new Set((dictionary['passwords-common'] as string[]).slice(0, 10_000).map((p) => p.toLowerCase()));

export function isCommonPassword(password: string): boolean {
  return COMMON.has(password.toLowerCase());
}

export const COMMON_PASSWORD_MESSAGE = 'This password is too common and easy to guess. Please choose a different one.';
