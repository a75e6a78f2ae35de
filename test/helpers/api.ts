import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { NextRequest } from 'next/server';

import { declareClientAddressStamping } from '@/lib/events';
import { CLIENT_ADDRESS_HEADER } from '@/lib/http/client-address';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route types its own params
type RouteHandler = (request: NextRequest, context: { params: Promise<any> }) => Promise<Response>;

export interface CallOptions {
  method?: string;
  json?: unknown;
  form?: FormData;
  body?: string;
  headers?: Record<string, string>;
  bearer?: string;
  cookie?: string;
  /**
   * The client address scripts/serve.ts stamps on the request (default
   * 203.0.113.10). null: no stamp, as under `next dev`, so the route falls
   * back to X-Forwarded-For and TRUST_PROXY.
   */
  ip?: string | null;
  /** Dynamic route segments, as Next passes them to the handler. */
  params?: Record<string, string | string[]>;
}

export const ORIGIN = 'http://localhost:3999';

// Requests made here reach handlers as the production server hands them on: it stamps every request with the client's address.
declareClientAddressStamping();

/**
 * Calls an App Router route handler the way Next does: a real NextRequest in,
 * a real Response out (database, mail and files are all real).
 */
export async function call(handler: RouteHandler, pathname: string, options: CallOptions = {}) {
  const headers = new Headers(options.headers);
  if (options.ip !== null && !headers.has(CLIENT_ADDRESS_HEADER)) headers.set(CLIENT_ADDRESS_HEADER, options.ip ?? '203.0.113.10');
  if (options.bearer) headers.set('authorization', `Bearer ${options.bearer}`);
  if (options.cookie) headers.set('cookie', options.cookie);
  let body: BodyInit | undefined = options.body;
  if (options.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(options.json);
  }
  if (options.form) {
    // A real multipart body with its boundary and length, as a browser sends it.
    const encoded = new Response(options.form);
    body = await encoded.arrayBuffer();
    headers.set('content-type', encoded.headers.get('content-type')!);
    headers.set('content-length', String(body.byteLength));
  }
  const request = new NextRequest(new URL(pathname, ORIGIN), { method: options.method ?? (body ? 'POST' : 'GET'), headers, body });
  return readResponse(await handler(request, { params: Promise.resolve(options.params ?? {}) }));
}

async function readResponse(response: Response) {
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = { raw: text };
  }
  return { status: response.status, headers: response.headers, body, setCookie: response.headers.getSetCookie() };
}

/** The messages in DATA_DIR/outbox, oldest first, with the first link each contains. */
export function outbox(dataDir: string): { to: string; subject: string; link: string | undefined; raw: string }[] {
  const dir = path.join(dataDir, 'outbox');
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return files.map((file) => {
    const raw = readFileSync(path.join(dir, file), 'utf8');
    const unfolded = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    return {
      raw,
      to: /^To: (.*)$/m.exec(raw)?.[1] ?? '',
      subject: /^Subject: (.*)$/m.exec(raw)?.[1] ?? '',
      link: /(http:\/\/localhost:3999\/api\/auth\/verify-email\?token=[A-Za-z0-9_-]+)/.exec(unfolded)?.[1],
    };
  });
}

export function registrationForm(overrides: Record<string, string | Blob> = {}): FormData {
  const fields: Record<string, string | Blob> = {
    username: 'NewMember',
    email: 'new.member@example.org',
    password: 'velvet-chrysalis-42',
    confirmPassword: 'velvet-chrysalis-42',
    dateOfBirth: '1995-04-12',
    ...overrides,
  };
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return form;
}
