import 'server-only';

import type { IncomingMessage, ServerResponse } from 'node:http';

import { NextRequest } from 'next/server';

import { getConfig } from '@/lib/config/server';
import { stampClientAddress } from '@/lib/http/client-address';
import { registerNodeUploadHandler } from '@/lib/http/upload-bridge';

import { requireUser } from '../auth/session';
import { json, route } from '../http';

import { uploadVideo } from './upload';

/** The headers of a Node request as a Headers object (repeated headers joined, as fetch does). */
function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

/**
 * POST /api/videos/upload straight from the Node server: the request's
 * headers become a NextRequest for the usual session and origin checks, and
 * its body stream goes to the upload service untouched. Answers exactly as
 * the App Router route does (route() maps errors to { message }).
 */
const handle = route(async (request: NextRequest, body: IncomingMessage) => json(await uploadVideo(await requireUser(request), request, body), { status: 201 }));

export async function handleNodeUpload(req: IncomingMessage, res: ServerResponse): Promise<void> {
  // As scripts/serve.ts does for every request (the same result when it already has): the address comes from the socket, never from the client.
  stampClientAddress(req, getConfig().trustProxy);
  const origin = `http://${req.headers.host ?? 'localhost'}`;
  const request = new NextRequest(new URL(req.url ?? '/', origin), { method: req.method, headers: headersOf(req) });
  const response = await handle(request, req);
  const payload = Buffer.from(await response.arrayBuffer());
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.setHeader('content-length', payload.length);
  // A refused upload (401, 413…) may not have been read: Node reads and discards the rest after the answer, so the client sees it.
  res.end(payload);
}

export function registerUploadBridge(): void {
  registerNodeUploadHandler(handleNodeUpload);
}
