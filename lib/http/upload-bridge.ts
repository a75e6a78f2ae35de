import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Video uploads in the production server skip Next's request handling: Next
 * turns the Node request into a web stream chunk by chunk (copying each
 * chunk), which measured at a third of the disk's speed for a 1 GiB upload.
 * The app registers a handler for the raw Node request here at start-up
 * (lib/server/videos/upload-node.ts); scripts/serve.ts hands POSTs to the
 * upload path to it. Same service, same checks; the App Router route
 * (app/api/videos/upload) still serves `npm run dev` and tests.
 */
export type NodeUploadHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export const UPLOAD_PATH = '/api/videos/upload';

const KEY = Symbol.for('chrysalis.nodeUploadHandler');

export function registerNodeUploadHandler(handler: NodeUploadHandler): void {
  (globalThis as Record<symbol, unknown>)[KEY] = handler;
}

export function nodeUploadHandler(): NodeUploadHandler | undefined {
  return (globalThis as Record<symbol, unknown>)[KEY] as NodeUploadHandler | undefined;
}

/** Whether a request is a video upload the registered handler should take. */
export function isUploadRequest(req: IncomingMessage): boolean {
  if (req.method !== 'POST' || !req.url) return false;
  const pathname = req.url.split('?')[0];
  return pathname === UPLOAD_PATH;
}
