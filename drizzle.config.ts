import { defineConfig } from 'drizzle-kit';

// Only `drizzle-kit generate` uses this: it diffs lib/db/schema.ts against the
// previous snapshot and writes SQL; no database connection is needed.
export default defineConfig({
  dialect: 'postgresql',
  schema: './lib/db/schema.ts',
  out: './lib/db/migrations',
});
