/**
 * zod as every shared schema and form uses it. In the browser it must not
 * compile parsers with `new Function`: our Content-Security-Policy allows no
 * eval, and zod's probe for it (a `Function("")` call) is reported as a
 * violation. jitless skips probe and compiling; the forms' small objects
 * parse as fast. Configured here, which every schema module imports first,
 * so it runs before any schema is built (zod probes when it builds one), and
 * not in instrumentation-client.ts, which would put zod in every page's first
 * load. Having an effect, this module is never tree-shaken: what a public page
 * needs only for its words lives in zod-free modules (task-messages.ts).
 */
import { z } from 'zod';

if (typeof window !== 'undefined') z.config({ jitless: true });

export { z };
