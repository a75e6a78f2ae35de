import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import fc from 'fast-check';

import { ConfigError, loadConfig } from '@/lib/config/server';
import { ApiError } from '@/lib/server/errors';
import {
  checkDocument,
  getVerificationKey,
  openDocument,
  sealDocument,
  sniffDocumentType,
  verificationAvailable,
} from '@/lib/server/trust/documents';

const KEY = 'a'.repeat(64);
const config = (env: Record<string, string>) => loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'docs-')), ...env });

const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);
const WEBP = new Uint8Array([...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBPVP8 ')]);
const PDF = new Uint8Array(Buffer.from('%PDF-1.7\n'));

describe('sealed private documents', () => {
  it('knows a file by its bytes, never by its name', () => {
    expect(sniffDocumentType(JPEG)).toBe('image/jpeg');
    expect(sniffDocumentType(PNG)).toBe('image/png');
    expect(sniffDocumentType(WEBP)).toBe('image/webp');
    expect(sniffDocumentType(PDF)).toBe('application/pdf');
    for (const other of ['hello', '<svg onload=alert(1)>', 'RIFF\0\0\0\0AVI ', 'GIF89a', '%PD', '\0\0\0 ftypheic']) {
      expect(sniffDocumentType(new Uint8Array(Buffer.from(other)))).toBeNull();
    }
  });

  it('refuses empty, foreign and oversized files with the messages members see', () => {
    const caught = (bytes: Uint8Array) => {
      try {
        checkDocument(bytes, 'idDocument');
      } catch (error) {
        return error as ApiError;
      }
      throw new Error('expected a refusal');
    };
    expect(caught(new Uint8Array())).toMatchObject({
      status: 400,
      message: 'Documents must be a photo (JPEG, PNG or WebP) or a PDF.',
      extra: { field: 'idDocument' },
    });
    expect(caught(new Uint8Array(Buffer.from('#!/bin/sh\n')))).toMatchObject({ status: 400 });
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(JPEG);
    expect(caught(big)).toMatchObject({ status: 413, message: 'Each document must be 10 MB or smaller.' });
  });

  it('round-trips any bytes, and a changed byte or another key cannot open it', () => {
    const key = getVerificationKey(config({ VERIFICATION_KEY: KEY }));
    const other = getVerificationKey(config({ VERIFICATION_KEY: 'b'.repeat(64) }));
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), fc.nat(), (plain, flip) => {
        const { keyId, sealed } = sealDocument(plain, key);
        expect(Buffer.compare(openDocument(sealed, keyId, key), Buffer.from(plain))).toBe(0);
        expect(() => openDocument(sealed, keyId, other)).toThrow();
        const tampered = Buffer.from(sealed);
        tampered[flip % tampered.length]! ^= 1;
        expect(() => openDocument(tampered, keyId, key)).toThrow();
      }),
      { numRuns: 200 },
    );
  });

  it('seals the same file differently each time (a fresh nonce)', () => {
    const key = getVerificationKey(config({ VERIFICATION_KEY: KEY }));
    expect(sealDocument(JPEG, key).sealed.equals(sealDocument(JPEG, key).sealed)).toBe(false);
  });

  it('refuses documents in production without VERIFICATION_KEY, and invents a local key elsewhere', () => {
    const production = config({ NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(40) });
    expect(verificationAvailable(production)).toBe(false);
    expect(() => getVerificationKey(production)).toThrow(
      expect.objectContaining({
        status: 503,
        message: 'Identity verification is not set up on this site yet. Please try again later.',
      }),
    );
    const development = config({});
    expect(verificationAvailable(development)).toBe(true);
    expect(getVerificationKey(development).key.equals(getVerificationKey(development).key)).toBe(true);
    expect(verificationAvailable(config({ NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(40), VERIFICATION_KEY: KEY }))).toBe(
      true,
    );
  });

  it('names a bad key without echoing it', () => {
    try {
      config({ VERIFICATION_KEY: 'not-a-key-secret-value' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const [problem] = (error as ConfigError).problems;
      expect(problem).toMatchObject({ variable: 'VERIFICATION_KEY' });
      expect(problem!.message).not.toContain('not-a-key-secret-value');
    }
  });
});
