/**
 * zod as every shared schema and form uses it. In the browser it must not
 * compile parsers with `new Function`: our Content-Security-Policy allows no
 * eval, and zod's probe for it (a `Function("")` call) is reported as a
 * violation. jitless skips probe and compiling; the forms' small objects
 * parse as fast. Configured here, where zod is first loaded, rather than in
 * instrumentation-client.ts, which would put zod in every page's first load.
 */
import { z } from 'zod';

if (typeof window !== 'undefined') z.config({ jitless: true });

export { z };
