import type { NextRequest } from 'next/server';

import { ApiError } from '@/lib/server/errors';
import { logger } from '@/lib/server/log';
import { readBodyBytes } from '@/lib/server/route-handler';
import { receivePostback } from '@/lib/server/payments/postbacks';
import { getPaymentProcessor } from '@/lib/server/payments/processor';

/** Postbacks are a few hundred bytes; anything much larger is not one. */
const MAX_POSTBACK_BYTES = 32 * 1024;

/**
 * Verotel's server calls this (GET with query parameters; a form POST works
 * too) for every sale, rebill, cancel, expiry, refund and chargeback. It
 * reads plain text: "OK" means delivered. See docs/api.md and
 * lib/server/payments/postbacks.ts for what each answer means.
 */
function text(body: string, status = 200): Response {
  return new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
}

/** The parameters as one record; a signed postback never repeats a key, so a repeat is refused rather than guessed at. */
async function readParams(request: NextRequest): Promise<Record<string, string> | string> {
  const entries: [string, string][] = [...request.nextUrl.searchParams.entries()];
  if (request.method === 'POST') {
    const type = request.headers.get('content-type') ?? '';
    if (type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data')) {
      // Streamed and cut at the cap (413), chunked or not, before anything is parsed.
      const bytes = await readBodyBytes(request, MAX_POSTBACK_BYTES, 'The postback is too large.');
      try {
        const form = await new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]), {
          headers: { 'content-type': type },
        }).formData();
        for (const [key, value] of form.entries()) if (typeof value === 'string') entries.push([key, value]);
      } catch {
        return 'The form data could not be read.';
      }
    } else if (type) {
      return 'Send the postback as query parameters or as a form.';
    }
  }
  const params: Record<string, string> = {};
  for (const [key, value] of entries) {
    if (Object.hasOwn(params, key)) return `The parameter ${key} is repeated.`;
    params[key] = value;
  }
  return params;
}

async function handle(request: NextRequest): Promise<Response> {
  try {
    const processor = getPaymentProcessor();
    // 503 makes Verotel retry later, once the operator has set VEROTEL_SHOP_ID and VEROTEL_SIGNATURE_KEY.
    if (processor?.name !== 'verotel') return text('Verotel payments are not configured on this site.', 503);
    const params = await readParams(request);
    if (typeof params === 'string') return text(params, 400);
    const answer = await receivePostback(processor, params);
    return text(answer.body, answer.status);
  } catch (error) {
    if (error instanceof ApiError) return text(error.message, error.status);
    logger('payments').error({ err: error }, 'verotel postback failed');
    return text('Temporary error; please retry.', 500);
  }
}

// GET /api/payments/verotel/postback?…&signature=… — FlexPay postback: 200 "OK" (also for a replay or an event needing no action), 401 bad signature, 400 signed but wrong.
export const GET = handle;
// POST /api/payments/verotel/postback — the same as a form (application/x-www-form-urlencoded or multipart).
export const POST = handle;
