import { handler } from '@/lib/server/route-handler';
import {
  getMyVerification,
  MAX_VERIFICATION_FORM_BYTES,
  submitVerification,
  VERIFICATION_FORM_TOO_LARGE,
} from '@/lib/server/verification';

// GET /api/users/me/verification — the caller's identity verification: none, pending, approved, or rejected with the reason.
export const GET = handler({ auth: 'member' }, async ({ actor }) => ({ verification: await getMyVerification(actor) }));

// POST /api/users/me/verification — multipart: legalName, dateOfBirth, idDocument (photo or PDF), selfie (photo); 409 while one is under review, 503 without VERIFICATION_KEY in production.
export const POST = handler(
  { auth: 'member', form: { tooLargeMessage: VERIFICATION_FORM_TOO_LARGE, maxBytes: MAX_VERIFICATION_FORM_BYTES }, status: 201 },
  async ({ actor, form }) => submitVerification(actor, form),
);
