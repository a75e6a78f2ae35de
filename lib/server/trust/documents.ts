import 'server-only';

import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { eq } from 'drizzle-orm';

import { getConfig, type ServerConfig } from '@/lib/config/server';
import type { Database } from '@/lib/db';
import { privateDocuments, type PrivateDocumentPurpose } from '@/lib/db/schema';

import { ApiError, badRequest } from '../errors';

/**
 * Identity documents, selfies and signed releases (decision 013): sealed
 * with AES-256-GCM before they reach the database, opened only for an admin
 * who is looking at them (and that look is audited by the caller). The key
 * is VERIFICATION_KEY; in development and tests a key file under DATA_DIR
 * stands in, in production nothing is accepted without the real key.
 */

export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
export const DOCUMENT_TYPES_MESSAGE = 'Documents must be a photo (JPEG, PNG or WebP) or a PDF.';
export const DOCUMENT_TOO_LARGE_MESSAGE = 'Each document must be 10 MB or smaller.';
export const VERIFICATION_UNAVAILABLE_MESSAGE = 'Identity verification is not set up on this site yet. Please try again later.';

export type DocumentMediaType = 'image/jpeg' | 'image/png' | 'image/webp' | 'application/pdf';

/** What a file is from its first bytes, never from its name or the browser's claim; null for anything else. */
export function sniffDocumentType(bytes: Uint8Array): DocumentMediaType | null {
  const starts = (signature: number[], offset = 0) => signature.every((byte, i) => bytes[offset + i] === byte);
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  return null;
}

interface DocumentKey {
  id: string;
  key: Buffer;
}

/** A short, non-secret name for a key, stored with each document so a rotated key can still open old ones. */
const keyIdOf = (key: Buffer) => createHash('sha256').update('chrysalis-document-key\n').update(key).digest('hex').slice(0, 16);

/**
 * The key documents are sealed with. Production refuses without
 * VERIFICATION_KEY (503 with a plain message) rather than invent one that a
 * second machine would not share.
 */
export function getVerificationKey(config: ServerConfig = getConfig()): DocumentKey {
  if (config.verificationKey) {
    const key = Buffer.from(config.verificationKey, 'hex');
    return { id: keyIdOf(key), key };
  }
  if (config.nodeEnv === 'production') throw new ApiError(503, VERIFICATION_UNAVAILABLE_MESSAGE);
  const file = path.join(config.dataDir, 'verification-key');
  mkdirSync(config.dataDir, { recursive: true });
  try {
    writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  return { id: keyIdOf(key), key };
}

/** Whether documents can be accepted now (the forms say so instead of failing on submit). */
export function verificationAvailable(config: ServerConfig = getConfig()): boolean {
  return Boolean(config.verificationKey) || config.nodeEnv !== 'production';
}

export function sealDocument(plain: Uint8Array, key: DocumentKey = getVerificationKey()): { keyId: string; sealed: Buffer } {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.key, nonce);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { keyId: key.id, sealed: Buffer.concat([nonce, cipher.getAuthTag(), body]) };
}

export function openDocument(sealed: Uint8Array, keyId: string, key: DocumentKey = getVerificationKey()): Buffer {
  if (keyId !== key.id) throw new Error(`document sealed with key ${keyId}, the configured key is ${key.id}`);
  const bytes = Buffer.from(sealed);
  const decipher = createDecipheriv('aes-256-gcm', key.key, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]);
}

/** Checks a submitted file: non-empty, within the size limit, and really an image or a PDF (400 otherwise). */
export function checkDocument(bytes: Uint8Array, field: string): DocumentMediaType {
  if (bytes.byteLength > MAX_DOCUMENT_BYTES) throw new ApiError(413, DOCUMENT_TOO_LARGE_MESSAGE, { field });
  const type = bytes.byteLength > 0 ? sniffDocumentType(bytes) : null;
  if (!type) throw badRequest(DOCUMENT_TYPES_MESSAGE, { field });
  return type;
}

/**
 * Seals and stores one document in the caller's transaction (so a record
 * and the files it names are stored together or not at all). `allowed`
 * narrows the types (a selfie must be a photo). Returns the new id.
 */
export async function storePrivateDocument(
  db: Database,
  input: {
    ownerId: string;
    purpose: PrivateDocumentPurpose;
    bytes: Uint8Array;
    field: string;
    allowed?: readonly DocumentMediaType[];
  },
): Promise<string> {
  const mediaType = checkDocument(input.bytes, input.field);
  if (input.allowed && !input.allowed.includes(mediaType)) {
    throw badRequest(
      input.allowed.includes('application/pdf') ? DOCUMENT_TYPES_MESSAGE : 'This must be a photo (JPEG, PNG or WebP).',
      { field: input.field },
    );
  }
  const { keyId, sealed } = sealDocument(input.bytes);
  const [row] = await db
    .insert(privateDocuments)
    .values({
      ownerId: input.ownerId,
      purpose: input.purpose,
      mediaType,
      byteSize: input.bytes.byteLength,
      sha256: createHash('sha256').update(input.bytes).digest('hex'),
      keyId,
      sealed,
    })
    .returning({ id: privateDocuments.id });
  return row!.id;
}

/**
 * A document's bytes and type. Callers must have checked that the actor is
 * an admin and written the view to the audit log in the same request.
 */
export async function readPrivateDocument(
  db: Database,
  id: string,
): Promise<{ mediaType: DocumentMediaType; bytes: Buffer; purpose: PrivateDocumentPurpose; ownerId: string } | null> {
  const [row] = await db.select().from(privateDocuments).where(eq(privateDocuments.id, id));
  if (!row) return null;
  return {
    mediaType: row.mediaType as DocumentMediaType,
    bytes: openDocument(row.sealed, row.keyId),
    purpose: row.purpose,
    ownerId: row.ownerId,
  };
}
