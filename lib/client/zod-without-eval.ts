/**
 * Imported, for its effect, by every client component that parses with zod.
 * zod compiles object parsers with `new Function` when it may; its probe for
 * that (a `Function("")` call) is refused by our Content-Security-Policy,
 * which allows no eval, and each refusal is reported as a violation. jitless
 * skips probe and compiling; the forms' small objects parse as fast.
 *
 * Not in lib/validation: a module with an effect cannot be tree-shaken, and
 * components that only read a message constant from there (the daily task
 * banner on home) would then put all of zod in the page's first load.
 */
import { z } from 'zod';

z.config({ jitless: true });
