import 'server-only';

import { storePrivateDocument } from '../trust/documents';

import type { VerificationProvider } from './provider';

/**
 * The built-in provider: the member's ID (photo or PDF) and a selfie holding
 * it (a photo) go into the sealed document store (decision 013) in the
 * caller's transaction, and an admin compares them with the legal name and
 * date of birth at /admin/verifications.
 */
export const manualProvider: VerificationProvider = {
  name: 'manual',
  decidedBy: 'admin',
  start: async () => ({ kind: 'form' }),
  async submit(db, memberId, submission) {
    const idDocumentId = await storePrivateDocument(db, {
      ownerId: memberId,
      purpose: 'verification_id',
      bytes: submission.idDocument,
      field: 'idDocument',
    });
    const selfieDocumentId = await storePrivateDocument(db, {
      ownerId: memberId,
      purpose: 'verification_selfie',
      bytes: submission.selfie,
      field: 'selfie',
      allowed: ['image/jpeg', 'image/png', 'image/webp'],
    });
    return { idDocumentId, selfieDocumentId, providerReference: null };
  },
  status: async () => null,
  readWebhook: async () => ({ ok: false, status: 404, reason: 'The manual verification provider takes no webhooks.' }),
};
