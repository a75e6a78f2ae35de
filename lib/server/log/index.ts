/**
 * The one logger (pino): JSON lines in production, a readable line per
 * record otherwise, at LOG_LEVEL. Every record written while a request (or a
 * job) runs carries its id, from an AsyncLocalStorage entered by
 * scripts/serve.ts around Next's handler (lib/server/log/requests.ts) and by
 * the job worker around each job.
 *
 * Next loads route handlers, pages and instrumentation as module instances of
 * their own, and scripts/serve.ts loads this file outside Next altogether, so
 * the logger and the storage are anchored once on the global object (as
 * lib/events.ts does): every copy of this module writes through the same ones.
 *
 * Deliberately plain Node (no server-only marker, no app imports but the
 * configuration schema): scripts/serve.ts imports it.
 *
 * What never goes to a log: bodies, tokens, cookies, passwords, emails. Pino's
 * `redact` blanks those fields wherever a record carries them, and message
 * strings and error messages are scrubbed of email addresses and bearer tokens.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

import pino, { type DestinationStream, type Logger } from 'pino';

import { logLevelSchema } from '../../config/schema';

/** What a log record says about the request or job it was written in. Mutable: the app adds the member once it knows them. */
export interface LogContext {
  requestId?: string;
  memberId?: string;
  jobId?: string;
  jobType?: string;
  /** The request failed because the database connection was lost (lib/db/connection-loss.ts): its 500 goes out as a 503. */
  databaseUnavailable?: boolean;
  /** The page rendered its own 404 or 410 (lib/server/page-status.ts): Next's 200 goes out with this status. */
  pageStatus?: 404 | 410;
}

/** Field paths blanked in every record (pino `redact`; `*` is one level of nesting). */
export const REDACT_PATHS = [
  'authorization',
  'cookie',
  'password',
  'token',
  'email',
  '*.authorization',
  '*.cookie',
  '*["set-cookie"]',
  '*.password',
  '*.token',
  '*.email',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  '*.*.password',
  '*.*.token',
  '*.*.email',
];

export const REDACTED = '[redacted]';

const EMAIL_SOURCE = '[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}';
const EMAIL = new RegExp(EMAIL_SOURCE, 'g');
const HAS_EMAIL = new RegExp(EMAIL_SOURCE);
const BEARER = /\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi;

/** Text with neither can hold no email address or bearer token: most paths, on every request's line. */
const MAY_HOLD_SECRET = /@|bearer/i;

/** Removes email addresses and bearer tokens from free text (messages, error messages, stacks). */
export function scrubText(text: string): string {
  if (!MAY_HOLD_SECRET.test(text)) return text;
  return text.replace(BEARER, `$1${REDACTED}`).replace(EMAIL, '[email]');
}

/** Query keys whose values are kept in logged paths; every other value (tokens, codes, emails, search words) is dropped. */
const SAFE_QUERY_KEYS = new Set([
  'sort',
  'duration',
  'page',
  'limit',
  'category',
  'status',
  'type',
  'tab',
  'filter',
  'view',
  '_rsc',
]);

/**
 * A request path fit for a log: the path as sent (ids included) and the query's keys, with the
 * values of all but a few harmless keys (sort, page…) replaced, so reset tokens, verification
 * codes, signatures, emails and search words never reach the log.
 */
export function scrubPath(url: string | undefined): string {
  const raw = url ?? '';
  const at = raw.indexOf('?');
  const path = scrubText(at < 0 ? raw : raw.slice(0, at));
  if (at < 0) return path;
  const query = new URLSearchParams(raw.slice(at + 1));
  const parts: string[] = [];
  for (const [key, value] of query) {
    const safeKey = scrubText(key).slice(0, 40);
    parts.push(
      SAFE_QUERY_KEYS.has(key.toLowerCase()) && !HAS_EMAIL.test(value)
        ? `${encodeURIComponent(safeKey)}=${encodeURIComponent(value.slice(0, 40))}`
        : `${encodeURIComponent(safeKey)}=${REDACTED}`,
    );
  }
  return parts.length ? `${path}?${parts.join('&')}` : path;
}

/** An error as pino's serializer writes it, with its message and stack scrubbed. */
function serializeError(error: unknown) {
  const serialized = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  if (!serialized || typeof serialized !== 'object') return serialized;
  for (const field of ['message', 'stack']) {
    if (typeof serialized[field] === 'string') serialized[field] = scrubText(serialized[field] as string);
  }
  return serialized;
}

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const OWN_FIELDS = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'requestId', 'err']);

/** Development output: `12:00:00.123 INFO  [request id] message key=value …`, and an error's stack below. */
export function readableDestination(write: (text: string) => void = (text) => process.stdout.write(text)): DestinationStream {
  return {
    write(line: string) {
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        write(line);
        return;
      }
      const time = new Date(Number(record.time)).toISOString().slice(11, 23);
      const level = (LEVEL_NAMES[Number(record.level)] ?? String(record.level)).padEnd(5);
      const id = record.requestId ? ` [${String(record.requestId).slice(0, 8)}]` : '';
      const extras = Object.entries(record)
        .filter(([key]) => !OWN_FIELDS.has(key))
        .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
        .join(' ');
      const err = record.err as { stack?: string; message?: string } | undefined;
      const errorText = err ? `\n    ${(err.stack ?? err.message ?? '').split('\n').join('\n    ')}` : '';
      write(`${time} ${level}${id} ${String(record.msg ?? '')}${extras ? ` ${extras}` : ''}${errorText}\n`);
    },
  };
}

interface Anchor {
  storage: AsyncLocalStorage<LogContext>;
  logger?: Logger;
  /** Where the process's records go: stdout (JSON or readable) unless a test points them elsewhere (setLogSink). */
  sink?: DestinationStream;
  stdout?: DestinationStream;
}

const ANCHOR = Symbol.for('chrysalis.log');
const anchored = globalThis as typeof globalThis & { [ANCHOR]?: Anchor };
const anchor: Anchor = (anchored[ANCHOR] ??= { storage: new AsyncLocalStorage<LogContext>() });

export interface LoggerOptions {
  level?: string;
  /** JSON lines (production) or the readable format. */
  json?: boolean;
  destination?: DestinationStream;
}

/** A logger with the app's redaction, scrubbing and request context (tests give their own destination). */
export function createLogger(options: LoggerOptions = {}): Logger {
  const json = options.json ?? process.env.NODE_ENV === 'production';
  const destination = options.destination ?? (json ? pino.destination({ dest: 1, sync: true }) : readableDestination());
  return pino(
    {
      level: options.level ?? logLevelSchema.parse(process.env.LOG_LEVEL),
      base: json ? { pid: process.pid } : undefined,
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      serializers: { err: serializeError, error: serializeError },
      mixin: () => {
        const context = anchor.storage.getStore();
        if (!context) return {};
        const fields: LogContext = {};
        if (context.requestId) fields.requestId = context.requestId;
        if (context.jobId) fields.jobId = context.jobId;
        if (context.jobType) fields.jobType = context.jobType;
        return fields;
      },
      hooks: {
        // Messages are free text: scrub them (and string arguments) of emails and bearer tokens.
        logMethod(args, method) {
          const cleaned = args.map((arg) => (typeof arg === 'string' ? scrubText(arg) : arg)) as Parameters<typeof method>;
          method.apply(this, cleaned);
        },
      },
    },
    destination,
  );
}

// JSON lines for a log collector; a terminal (`npm start` by hand) gets readable lines, as pino-pretty would print them.
const json = () => process.env.NODE_ENV === 'production' && !process.stdout.isTTY;

/**
 * Standard output in production: the records written during one turn of the event loop, gathered and
 * written with one synchronous write when the turn ends (setImmediate), at 64 KiB, and at exit.
 * - One write per record cost every page-cache hit a system call of its own (decision 040).
 * - SonicBoom's asynchronous mode cost four times as much (decision 029): it converts its whole
 *   pending string again on every partial write. Here each batch is converted once, and SonicBoom's
 *   synchronous mode writes it (it retries partial writes and a full pipe).
 * - What a crash can lose: the records of the turn it happens in, and only when the process dies
 *   without running its exit handlers (SIGKILL, an out-of-memory abort); an uncaught exception, a
 *   fatal record followed by process.exit() and a stop by SIGTERM all flush first.
 */
function batchedStdout(): DestinationStream {
  const stdout = pino.destination({ dest: 1, sync: true });
  let pending: string[] = [];
  let pendingLength = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (!pending.length) return;
    const batch = pending.join('');
    pending = [];
    pendingLength = 0;
    stdout.write(batch);
  };
  process.on('exit', flush);
  return {
    write(line: string) {
      pending.push(line);
      pendingLength += line.length;
      if (pendingLength >= 65_536) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
  };
}

const stdoutDestination = (): DestinationStream => (json() ? batchedStdout() : readableDestination());

/** Every logger of the process writes here: to the sink of the moment. */
const processDestination: DestinationStream = {
  write: (line: string) => {
    const sink = anchor.sink ?? (anchor.stdout ??= stdoutDestination());
    sink.write(line);
  },
};

/** The process's logger, made on first use; its records go to the sink of the moment. */
export function getLogger(): Logger {
  return (anchor.logger ??= createLogger({ json: json(), destination: processDestination }));
}

/** Sends the process's records (JSON lines) to a destination instead of stdout; undefined restores stdout (tests). */
export function setLogSink(sink: DestinationStream | undefined): void {
  anchor.sink = sink;
}

/** A logger for one part of the app: its records carry `component`. */
export function logger(component: string): Logger {
  return getLogger().child({ component });
}

/** Runs fn with a log context: every record written inside it (however deep, however async) carries it. */
export function runWithLogContext<T>(context: LogContext, fn: () => T): T {
  return anchor.storage.run(context, fn);
}

/** The context of the request or job running now, if any. */
export function logContext(): LogContext | undefined {
  return anchor.storage.getStore();
}

/** The id of the request being answered now, if any (for error answers). */
export function currentRequestId(): string | undefined {
  return anchor.storage.getStore()?.requestId;
}

/** Notes who the caller of the current request is, for its request log line (never sent to the client). */
export function noteMember(memberId: string): void {
  const context = anchor.storage.getStore();
  if (context && context.requestId) context.memberId = memberId;
}
