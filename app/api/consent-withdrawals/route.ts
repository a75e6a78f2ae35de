import { clientAddress } from '@/lib/server/client-address';
import { handler } from '@/lib/server/route-handler';
import { submitConsentWithdrawal } from '@/lib/server/trust/consent-withdrawals';
import { consentWithdrawalSchema } from '@/lib/validation/performers';

// POST /api/consent-withdrawals — { video, legalName, dateOfBirth, email, statement }: anyone (no account) withdraws their
// consent to a video they appear in; the video is hidden at once. The same answer whether or not the video exists.
export const POST = handler({ body: consentWithdrawalSchema, status: 202 }, async ({ body, request }) =>
  submitConsentWithdrawal(body, clientAddress(request)),
);
