import 'server-only';

import { NextResponse, type NextRequest } from 'next/server';

import { ApiError } from './errors';

type Handler<C> = (request: NextRequest, context: C) => Promise<Response>;

/** JSON response with no-store: API answers are per user and must not be cached. */
export function json(body: unknown, init: ResponseInit = {}): NextResponse {
  const headers = new Headers(init.headers);
  headers.set('Cache-Control', 'no-store');
  return NextResponse.json(body, { ...init, headers });
}

/**
 * Wraps a route handler: ApiErrors become `{ message, ...extra }` with their
 * status, anything unexpected a logged 500 that reveals nothing.
 */
export function route<C = unknown>(handler: Handler<C>): Handler<C> {
  return async (request, context) => {
    try {
      return await handler(request, context);
    } catch (error) {
      if (error instanceof ApiError) {
        return json({ message: error.message, ...error.extra }, { status: error.status, headers: error.headers });
      }
      console.error(`[api] ${request.method} ${new URL(request.url).pathname} failed:`, error);
      return json({ message: 'Something went wrong on our side. Please try again.' }, { status: 500 });
    }
  };
}

/** Reads a JSON body; malformed or non-object JSON is a 400, never a 500. */
export async function readJson(request: Request): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.includes('application/json')) throw new ApiError(415, 'Send the request body as JSON (Content-Type: application/json).');
  const text = await request.text();
  if (text.length > 64 * 1024) throw new ApiError(413, 'The request body is too large.');
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value;
  } catch {
    throw new ApiError(400, 'The request body is not valid JSON.');
  }
}

/** A JSON body when one was sent, else {} (for requests whose body is optional, such as DELETE with a note). */
export async function readOptionalJson(request: Request): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  const length = request.headers.get('content-length');
  if (!type && (length === null || length === '0')) return {};
  return readJson(request);
}

/** Largest registration form we read: the photo limit plus room for the text fields. */
const MAX_FORM_BYTES = 6 * 1024 * 1024;

/**
 * Reads a multipart (or urlencoded) form into text fields and files. Bodies
 * over the limit are refused from their declared length before reading;
 * malformed bodies are a 400.
 */
export async function readForm(request: Request): Promise<{ fields: Record<string, string>; files: Record<string, File> }> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.startsWith('multipart/form-data') && !type.startsWith('application/x-www-form-urlencoded')) {
    throw new ApiError(415, 'Send the form as multipart/form-data.');
  }
  const length = Number(request.headers.get('content-length') ?? 0);
  if (length > MAX_FORM_BYTES) throw new ApiError(413, 'The form is too large. Profile photos can be at most 5 MB.');
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new ApiError(400, 'The form data could not be read.');
  }
  const fields: Record<string, string> = {};
  const files: Record<string, File> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value === 'string') fields[key] = value;
    else if (value.size > 0 || value.name) files[key] = value;
  }
  return { fields, files };
}
