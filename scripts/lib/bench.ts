/**
 * What the benches share: percentiles, the summary table against targets,
 * scratch PostgreSQL connections, and `npm run seed` as a child process.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

import { Client } from 'pg';

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The nearest-rank percentile (p in 0–100). */
export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
};

export const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
export const count = (n: number) => n.toLocaleString('en-US');

export interface SummaryRow {
  section: string;
  measure: string;
  result: string;
  target: string;
  /** null: reported without a target. */
  ok: boolean | null;
}

/** Rows noted as a bench goes, printed at the end as one table. */
export function createSummary() {
  const rows: SummaryRow[] = [];
  return {
    note: (row: SummaryRow) => rows.push(row),
    print(say: (line: string) => void, sectionWidth = 10) {
      const width = Math.max(...rows.map((row) => row.measure.length));
      const resultWidth = Math.max(...rows.map((row) => row.result.length));
      say(
        `${'section'.padEnd(sectionWidth)}${'measure'.padEnd(width + 2)}${'result'.padEnd(resultWidth + 2)}${'target'.padEnd(10)}ok`,
      );
      for (const row of rows) {
        say(
          `${row.section.padEnd(sectionWidth)}${row.measure.padEnd(width + 2)}${row.result.padEnd(resultWidth + 2)}${row.target.padEnd(10)}${row.ok === null ? '' : row.ok ? 'yes' : 'NO'}`,
        );
      }
    },
  };
}

export async function withPostgres<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** `npm run seed -- --videos size …` in a child process (its output goes to stderr); resolves with its time in ms. */
export function seedCatalogue(size: number, env: NodeJS.ProcessEnv, extraArgs: string[] = []): Promise<number> {
  const started = performance.now();
  const child = spawn(
    path.join(process.cwd(), 'node_modules', '.bin', 'tsx'),
    ['--conditions=react-server', 'scripts/seed.ts', '--videos', String(size), ...extraArgs],
    {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  child.stdout!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`seed of ${size} videos exited with ${code}`)),
    );
  });
}
