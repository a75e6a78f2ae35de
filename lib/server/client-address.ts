import 'server-only';

/** Placeholder until the TRUST_PROXY work lands (branch sec-limits): the client address for rate limits and views. */
export function clientAddress(request: Request): string {
  const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  return forwarded || request.headers.get('x-real-ip') || 'unknown';
}
