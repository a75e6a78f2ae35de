/**
 * Runs in the browser before the app hydrates (Next's instrumentation-client convention).
 *
 * zod compiles object parsers with `new Function` when it may; its check for that (a `Function("")`
 * call) is refused by our Content-Security-Policy, which allows no eval, and each refusal is reported
 * as a violation. jitless skips the check and the compiling: the forms' small objects parse as fast.
 */
import { z } from 'zod';

z.config({ jitless: true });
