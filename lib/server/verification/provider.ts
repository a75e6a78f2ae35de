import 'server-only';

import { getConfig, type ServerConfig } from '@/lib/config/server';
import type { Database } from '@/lib/db';
import type { VerificationProviderName } from '@/lib/db/schema';

import { manualProvider } from './manual';

/**
 * What the verified-uploader code needs from an identity check, as payments
 * have PaymentProcessor (lib/server/payments/processor.ts). The built-in
 * `manual` provider takes the member's documents into our sealed store and
 * an admin decides at /admin/verifications. A hosted provider (Yoti,
 * Veriff, Onfido…) would be another implementation: `start` sends the
 * member to its page, `submit` is not used, its webhook route passes the
 * request to `readWebhook`, and the outcome is applied with the same
 * approve/reject code an admin uses (so notifications, statements of
 * reasons and the approval gate stay one path).
 */
export interface VerificationProvider {
  /** Stored in identity_verifications.provider. */
  readonly name: VerificationProviderName;
  /** Who decides: our admins (manual) or the provider (its webhook). */
  readonly decidedBy: 'admin' | 'provider';
  /** What the member does first: fill in our form, or go to the provider's hosted flow. */
  start(member: { id: string; username: string }): Promise<VerificationStart>;
  /**
   * Takes a submission made through our form, in the caller's transaction
   * (so the verification row and its documents are stored together or not at
   * all). Throws an ApiError with a sentence for a bad file.
   */
  submit(db: Database, memberId: string, submission: VerificationSubmission): Promise<SubmittedDocuments>;
  /** Where a hosted check stands, asked when a webhook was missed; null when the provider keeps no state of its own (manual). */
  status(reference: string): Promise<ProviderOutcome | null>;
  /** Checks a webhook's signature and reads it; the manual provider has no webhook. */
  readWebhook(request: { headers: Headers; body: Uint8Array }): Promise<WebhookReading>;
}

export type VerificationStart = { kind: 'form' } | { kind: 'redirect'; url: string; reference: string };

export interface VerificationSubmission {
  legalName: string;
  dateOfBirth: string;
  idDocument: Uint8Array;
  selfie: Uint8Array;
}

export interface SubmittedDocuments {
  idDocumentId: string | null;
  selfieDocumentId: string | null;
  /** The provider's id of the check (null for manual). */
  providerReference: string | null;
}

export type ProviderOutcome =
  | { reference: string; decision: 'approved' }
  | { reference: string; decision: 'rejected'; reason: string }
  | { reference: string; decision: 'pending' };

export type WebhookReading = { ok: true; outcome: ProviderOutcome } | { ok: false; status: 400 | 401 | 404; reason: string };

/** The configured provider (VERIFICATION_PROVIDER; manual is the default and the only built-in one). */
export function getVerificationProvider(config: ServerConfig = getConfig()): VerificationProvider {
  switch (config.verificationProvider) {
    case 'manual':
      return manualProvider;
  }
}
