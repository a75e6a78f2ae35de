import 'server-only';

import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { Transform, type TransformCallback } from 'node:stream';

import { BackupError } from './errors';

/**
 * Encrypted backups (decision 024): the whole tar, streamed through
 * AES-256-GCM in 64 KiB chunks, in the "STREAM" construction age uses, so a
 * multi-GB archive is written and read in bounded memory and every byte
 * handed to the tar reader has been authenticated first.
 *
 *   header  = MAGIC (16 bytes) | version (1) | chunk size (4, big-endian) | salt (32) | header MAC (32)
 *   chunk i = AES-256-GCM(payload key, nonce = i as 11 bytes big-endian | last ? 1 : 0, plaintext) | tag (16)
 *
 * The key file holds 32 random bytes (64 hex characters); each archive gets
 * its own payload and header keys from it by HKDF-SHA256 with a random salt,
 * so counters never repeat a nonce under one key. The header MAC tells a
 * wrong key apart from damage; the last-chunk flag in the nonce makes a cut
 * at a chunk boundary fail like any other truncation; a flipped byte fails
 * its chunk's tag.
 */

export const ENCRYPTED_MAGIC = Buffer.from('CHRYSALIS-ENC-BK', 'latin1');
const VERSION = 1;
const CHUNK = 64 * 1024;
const TAG = 16;
const SALT = 32;
const HEADER_FIELDS = ENCRYPTED_MAGIC.length + 1 + 4 + SALT;
const HEADER = HEADER_FIELDS + 32;

/** Reads a key file: 64 hex characters (32 random bytes), e.g. from `openssl rand -hex 32`. */
export async function readKeyFile(file: string, warn: (line: string) => void = () => undefined): Promise<Buffer> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new BackupError(`Cannot read the key file ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}.`);
  });
  const hex = text.trim();
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new BackupError(
      `The key file ${file} must hold 32 random bytes as 64 hex characters; make one with: (umask 077; openssl rand -hex 32 > ${file})`,
    );
  }
  if (((await stat(file)).mode & 0o077) !== 0) warn(`[backup] the key file ${file} can be read by other users: chmod 600 it.`);
  return Buffer.from(hex, 'hex');
}

function keys(fileKey: Buffer, salt: Buffer) {
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', fileKey, salt, `chrysalis backup v${VERSION} ${info}`, 32));
  return { payload: derive('payload'), header: derive('header') };
}

function nonce(index: number, last: boolean): Buffer {
  const bytes = Buffer.alloc(12);
  bytes.writeUIntBE(index, 5, 6); // 48 bits of counter: 16 EiB of archive at 64 KiB a chunk
  bytes[11] = last ? 1 : 0;
  return bytes;
}

/** Whether a file's first bytes are an encrypted backup's. */
export function isEncrypted(start: Buffer): boolean {
  return start.subarray(0, ENCRYPTED_MAGIC.length).equals(ENCRYPTED_MAGIC);
}

/** The archive's bytes in, the encrypted file's bytes out. */
export function encryptStream(fileKey: Buffer): Transform {
  const salt = randomBytes(SALT);
  const { payload, header } = keys(fileKey, salt);
  const fields = Buffer.alloc(HEADER_FIELDS);
  ENCRYPTED_MAGIC.copy(fields);
  fields[ENCRYPTED_MAGIC.length] = VERSION;
  fields.writeUInt32BE(CHUNK, ENCRYPTED_MAGIC.length + 1);
  salt.copy(fields, ENCRYPTED_MAGIC.length + 5);
  let pending: Buffer = Buffer.alloc(0);
  let index = 0;
  const seal = (plain: Buffer, last: boolean) => {
    const cipher = createCipheriv('aes-256-gcm', payload, nonce(index++, last));
    return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  };
  return new Transform({
    construct(callback) {
      this.push(Buffer.concat([fields, createHmac('sha256', header).update(fields).digest()]));
      callback();
    },
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      // Only what is certainly not the end: the last chunk (full or not, even empty) is sealed in flush().
      while (pending.length > CHUNK) {
        this.push(seal(pending.subarray(0, CHUNK), false));
        pending = pending.subarray(CHUNK);
      }
      callback();
    },
    flush(callback: TransformCallback) {
      callback(null, seal(pending, true));
    },
  });
}

/** The encrypted file's bytes in, the archive's bytes out; fails with a BackupError on a wrong key, damage or truncation. */
export function decryptStream(fileKey: Buffer, from: string): Transform {
  let payload: Buffer | undefined;
  let pending: Buffer = Buffer.alloc(0);
  let index = 0;
  const open = (sealed: Buffer, last: boolean): Buffer | null => {
    const decipher = createDecipheriv('aes-256-gcm', payload!, nonce(index, last));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
    try {
      return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG)), decipher.final()]);
    } catch {
      return null;
    }
  };
  const damaged = () =>
    new BackupError(
      `The encrypted archive ${from} is damaged or was altered (chunk ${index} fails its authentication): nothing was restored.`,
    );
  const truncated = () =>
    new BackupError(`The encrypted archive ${from} is truncated (it ends before its last chunk): nothing was restored.`);
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      if (!payload) {
        if (pending.length < HEADER) return callback();
        const error = readHeader(pending.subarray(0, HEADER));
        if (error) return callback(error);
        pending = pending.subarray(HEADER);
      }
      while (pending.length > CHUNK + TAG) {
        const plain = open(pending.subarray(0, CHUNK + TAG), false);
        if (!plain) return callback(damaged());
        this.push(plain);
        index += 1;
        pending = pending.subarray(CHUNK + TAG);
      }
      callback();
    },
    flush(callback: TransformCallback) {
      if (!payload || pending.length < TAG) return callback(truncated());
      const plain = open(pending, true);
      if (plain) return callback(null, plain);
      // A whole chunk that opens as a middle one: the archive was cut right after it.
      callback(pending.length === CHUNK + TAG && open(pending, false) ? truncated() : damaged());
    },
  });

  function readHeader(bytes: Buffer): BackupError | undefined {
    if (!isEncrypted(bytes)) return new BackupError(`${from} is not an encrypted Chrysalis backup.`);
    const version = bytes[ENCRYPTED_MAGIC.length];
    if (version !== VERSION)
      return new BackupError(`${from} is encrypted in format version ${version}, which this version of Chrysalis cannot read.`);
    const fields = bytes.subarray(0, HEADER_FIELDS);
    const derived = keys(fileKey, fields.subarray(ENCRYPTED_MAGIC.length + 5));
    if (!timingSafeEqual(createHmac('sha256', derived.header).update(fields).digest(), bytes.subarray(HEADER_FIELDS))) {
      return new BackupError(
        `The key file does not open ${from}: it was encrypted with another key (or its header is damaged). Nothing was restored.`,
      );
    }
    if (fields.readUInt32BE(ENCRYPTED_MAGIC.length + 1) !== CHUNK)
      return new BackupError(`${from} uses a chunk size this version of Chrysalis does not read.`);
    payload = derived.payload;
    return undefined;
  }
}
