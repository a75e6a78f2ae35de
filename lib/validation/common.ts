/** Small schema pieces every input module uses. */
import { z } from 'zod';

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
