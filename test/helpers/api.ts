import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { NextRequest } from 'next/server';

import { declareClientAddressStamping } from '@/lib/events';
import { CLIENT_ADDRESS_HEADER } from '@/lib/front/resolve-client-address';

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
  if (options.ip !== null && !headers.has(CLIENT_ADDRESS_HEADER))
    headers.set(CLIENT_ADDRESS_HEADER, options.ip ?? '203.0.113.10');
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
  const request = new NextRequest(new URL(pathname, ORIGIN), {
    method: options.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
  });
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

/** The messages in DATA_DIR/outbox, oldest first, with the first link each contains and the text a reader sees (decodedMail). */
export function outbox(dataDir: string): { to: string; subject: string; link: string | undefined; raw: string; text: string }[] {
  const dir = path.join(dataDir, 'outbox');
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
  return files.map((file) => {
    const raw = readFileSync(path.join(dir, file), 'utf8');
    const unfolded = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    return {
      raw,
      text: decodedMail(raw),
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

const decodeQuotedPrintable = (body: string) => {
  const joined = body.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(joined.slice(i + 1, i + 3))) {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
};

/** RFC 2047 encoded words (=?UTF-8?B?…?= and =?UTF-8?Q?…?=) in headers, as a mail client shows them. */
const decodeHeaderWords = (headers: string) =>
  headers
    .replace(/\r?\n[ \t]+/g, ' ')
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_all, _charset: string, kind: string, data: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );

const HTML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' };

/**
 * Everything a reader of a rendered message sees, decoded: its headers
 * (encoded words) and every MIME part (quoted-printable or base64, as
 * nodemailer picks per part; HTML entities read back), so a test can assert what a message says
 * however it was encoded.
 */
export function decodedMail(raw: string): string {
  const boundaries = [...raw.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((match) =>
    match[1]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
  );
  const sections = boundaries.length ? raw.split(new RegExp(`--(?:${boundaries.join('|')})(?:--)?`)) : [raw];
  return sections
    .map((section) => {
      const split = /\r?\n\r?\n/.exec(section);
      const headers = split ? section.slice(0, split.index) : section;
      const body = split ? section.slice(split.index + split[0].length) : '';
      const encoding = /Content-Transfer-Encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
      const text =
        encoding === 'base64'
          ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
          : encoding === 'quoted-printable'
            ? decodeQuotedPrintable(body)
            : body;
      const shown = /Content-Type:\s*text\/html/i.test(headers)
        ? text.replace(/&(lt|gt|quot|#39|amp);/g, (_all, name: string) => HTML_ENTITIES[name]!)
        : text;
      return `${decodeHeaderWords(headers)}\n\n${shown}`;
    })
    .join('\n');
}
