import 'server-only';

import type { IncomingMessage, ServerResponse } from 'node:http';

import { NextRequest } from 'next/server';

import { getConfig } from '@/lib/config/server';
import { onAppEvent } from '@/lib/events';
import { RESUMABLE_UPLOAD_PATH } from '@/lib/upload-paths';
import { stampClientAddress } from '@/lib/http/client-address';

import { handler, serverErrorBody } from '../http';

import { handleResumable } from './resumable';
import { uploadVideo } from './upload';
import { logger } from '@/lib/server/log';

const log = logger('upload');

/** The headers of a Node request as a Headers object (repeated headers joined, as fetch does). */
function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

/** Writes a web Response to a Node response (a refused upload may not have been read: Node reads and discards the rest after the answer, so the client sees it). */
async function send(res: ServerResponse, response: Response): Promise<void> {
  const payload = Buffer.from(await response.arrayBuffer());
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (response.status !== 204 && response.status !== 304) res.setHeader('content-length', payload.length);
  res.end(payload);
}

/**
 * An upload straight from the Node server: the request's headers become a
 * NextRequest for the usual caller and origin checks (the same as the App
 * Router routes), and its body stream goes to the upload service untouched:
 * POST /api/videos/upload to uploadVideo, the tus endpoint to tus.
 */
export async function handleNodeUpload(req: IncomingMessage, res: ServerResponse): Promise<void> {
  // As scripts/serve.ts does for every request (the same result when it already has): the address comes from the socket, never from the client.
  stampClientAddress(req, getConfig().trustProxy);
  const origin = `http://${req.headers.host ?? 'localhost'}`;
  const request = new NextRequest(new URL(req.url ?? '/', origin), { method: req.method, headers: headersOf(req) });
  if (request.nextUrl.pathname.startsWith(RESUMABLE_UPLOAD_PATH)) {
    await send(res, await handleResumable(request, req));
    return;
  }
  const upload = handler({ auth: 'member', status: 201 }, ({ actor }) => uploadVideo(actor, request, req));
  await send(res, await upload(request, { params: Promise.resolve({}) }));
}

/** Takes the uploads scripts/serve.ts hands over (lib/events.ts), answering any failure with the API's 500. */
export function registerUploadBridge(): void {
  onAppEvent('upload-request', (req, res) => {
    handleNodeUpload(req, res).catch((error: unknown) => {
      log.error({ err: error }, 'upload failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify(serverErrorBody()));
    });
  });
}
