/**
 * `npm run build`: the production build, stamped (scripts/lib/build.ts) so that `npm start` with the same
 * sources and settings serves it without building again, as docs/operations.md promises.
 */
import { build } from './lib/build';

build();
