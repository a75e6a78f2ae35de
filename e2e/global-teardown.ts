import { existsSync, readFileSync } from 'node:fs';

import { E2E_LOG_FILE, E2E_SECRETS_FILE } from '../scripts/lib/e2e-env';

import { ADMIN, PASSWORD } from './api';

/** What may never be in a log, whoever made it: an email address, a sealed session (cookie or bearer token), an unredacted bearer header. */
const FORBIDDEN_SHAPES: [string, RegExp][] = [
  ['an email address', /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/],
  ['a sealed session token (iron-session)', /Fe26\.2\*/],
  ['a bearer token', /Bearer\s+(?!\[redacted\])[A-Za-z0-9._~+/=-]{8,}/i],
];

/** Where in the log a secret shows, as a short excerpt with the secret itself masked. */
function excerpt(log: string, at: number, length: number): string {
  const start = Math.max(0, log.lastIndexOf('\n', at) + 1);
  const line = log.slice(start, Math.min(log.length, start + 300));
  return line.replace(log.slice(at, at + length), '<SECRET>').split('\n')[0]!;
}

/**
 * Runs after the whole e2e run: the server's output (scripts/e2e-server.ts
 * writes it to E2E_LOG_FILE) must hold none of the passwords, tokens, session
 * cookies, two-factor secrets or email addresses the tests used (recorded by
 * the helpers in e2e/api.ts), nor anything shaped like one.
 */
export default async function globalTeardown() {
  if (!existsSync(E2E_LOG_FILE))
    throw new Error(`${E2E_LOG_FILE} is missing: the e2e server's output was not written (E2E_LOG_FILE in playwright.config.ts)`);
  const log = readFileSync(E2E_LOG_FILE, 'utf8');
  // The server logs one line per request: an empty log means the search below proves nothing.
  if (!/"msg":"request"/.test(log))
    throw new Error(`${E2E_LOG_FILE} has no request lines: is the server logging JSON (NODE_ENV=production)?`);
  const recorded = existsSync(E2E_SECRETS_FILE) ? readFileSync(E2E_SECRETS_FILE, 'utf8').split('\n') : [];
  const secrets = new Set([ADMIN.email, ADMIN.password, PASSWORD, ...recorded].filter((secret) => secret.length >= 6));
  const problems: string[] = [];
  for (const secret of secrets) {
    const at = log.indexOf(secret);
    if (at >= 0)
      problems.push(`a secret a test used (${secret.length} characters) is in the log: ${excerpt(log, at, secret.length)}`);
  }
  for (const [what, shape] of FORBIDDEN_SHAPES) {
    const match = shape.exec(log);
    if (match) problems.push(`${what} is in the log: ${excerpt(log, match.index, match[0].length)}`);
  }
  if (problems.length)
    throw new Error(`The e2e server's log (${E2E_LOG_FILE}) leaks secrets:\n${problems.slice(0, 20).join('\n')}`);
}
