import { setLogSink } from '@/lib/server/log';

export interface LogRecord {
  level: number;
  msg: string;
  component?: string;
  err?: { message?: string; code?: string };
  [field: string]: unknown;
}

/** pino's level numbers. */
export const LEVEL = { info: 30, warn: 40, error: 50 } as const;

/**
 * Sends the app's log records (lib/server/log) into an array instead of stdout,
 * until `restore()`: tests read what was logged, and the run stays quiet.
 */
export function captureLogs(): { records: LogRecord[]; at: (level: number) => LogRecord[]; restore: () => void } {
  const records: LogRecord[] = [];
  setLogSink({ write: (line: string) => void records.push(JSON.parse(line) as LogRecord) });
  return {
    records,
    at: (level) => records.filter((record) => record.level === level),
    restore: () => setLogSink(undefined),
  };
}
