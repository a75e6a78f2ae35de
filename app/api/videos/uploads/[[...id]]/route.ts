import type { NextRequest } from 'next/server';

import { handleResumable } from '@/lib/server/videos/resumable';

/**
 * The tus endpoint (decision 026): POST /api/videos/uploads starts a resumable upload; HEAD, PATCH and DELETE
 * /api/videos/uploads/{id} continue or end it. In production scripts/serve.ts hands these to the same service
 * before Next (streamed, never buffered); this route answers them under `next dev`.
 */
const answer = (request: NextRequest) => handleResumable(request);

export const POST = answer;
export const HEAD = answer;
export const PATCH = answer;
export const DELETE = answer;
