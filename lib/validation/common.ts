/** Small schema pieces every input module uses. */
import { z } from '@/lib/validation/zod';

/** Query strings arrive as text; numbers are coerced and bounded, junk is a 400 with a message naming the parameter. */
export const positiveInt = (name: string, max: number, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be at least 1`)
    .max(max, `${name} must be at most ${max}`)
    .default(fallback);

/** Characters as people count them (code points, so an emoji is one), for limits and the forms' counters. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/**
 * Control characters other than tab and newline (C0, DEL and C1). PostgreSQL
 * refuses NUL in text (a 500 before this schema existed), and the rest fool
 * terminals, logs and mail headers; no one types them on purpose.
 */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/**
 * Text as we store it: well-formed Unicode (a lone surrogate becomes U+FFFD),
 * every line break as \n (CRLF, CR and the JavaScript-breaking U+2028/2029),
 * no control characters; single-line text also has its tabs and line breaks
 * turned into spaces.
 */
export function cleanText(value: string, { multiline = false }: { multiline?: boolean } = {}): string {
  const lines = value
    .toWellFormed()
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(CONTROL_CHARACTERS, '');
  return multiline ? lines : lines.replace(/[\t\n]/g, ' ');
}

/**
 * The one schema for text a client sends: every string input starts here
 * (then adds trim, limits and messages), so no field lets a NUL or a
 * control character through. `message` is the error for a non-string.
 */
export const text = (message?: string) =>
  z.string(message ? { error: message } : undefined).overwrite((value) => cleanText(value));

/** Like `text`, keeping line breaks (descriptions, comments, bios, notes). */
export const multilineText = (message?: string) =>
  z.string(message ? { error: message } : undefined).overwrite((value) => cleanText(value, { multiline: true }));
