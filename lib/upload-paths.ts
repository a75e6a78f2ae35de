/** The upload endpoints, named once for the server (lib/events.ts, scripts/serve.ts) and the browser (lib/client). Plain constants: no imports. */

/** The spec's multipart upload. */
export const UPLOAD_PATH = '/api/videos/upload';
/** The tus endpoint (decision 026): POST here starts an upload, which then lives at RESUMABLE_UPLOAD_PATH/<id>. */
export const RESUMABLE_UPLOAD_PATH = '/api/videos/uploads';
