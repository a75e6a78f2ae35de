import { NextResponse } from 'next/server';

import { getConfig } from '@/lib/config/server';
import { verifyEmailToken } from '@/lib/server/accounts/verification';
import { handler } from '@/lib/server/route-handler';

// GET /api/auth/verify-email?token= — the link in verification emails; lands on a result page.
export const GET = handler({}, async ({ request }) => {
  const token = request.nextUrl.searchParams.get('token') ?? '';
  const result = await verifyEmailToken(token);
  // The canonical origin: behind a proxy the request's own origin may be an internal address.
  const target = new URL(result.ok ? '/email-verified' : '/email-verification-failed', `${getConfig().siteUrl}/`);
  if (!result.ok && result.email) target.searchParams.set('email', result.email);
  const response = NextResponse.redirect(target, 303);
  response.headers.set('Cache-Control', 'no-store');
  response.headers.set('Referrer-Policy', 'no-referrer');
  return response;
});
