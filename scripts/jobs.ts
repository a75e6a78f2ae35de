/**
 * `npm run jobs -- list [--state failed|stuck|retrying|queued|running] [--limit N]`
 * `npm run jobs -- retry ID`
 *
 * For operators at a console: the background jobs that need a look, and a
 * retry, through the same functions as /admin/jobs (lib/server/jobs/admin.ts).
 * Opens the configured database like `npm run worker`; the embedded database
 * only while the server is stopped (one process at a time may open it).
 * Retries are written to the audit log as done by "operator (npm run jobs)".
 */
import { parseArgs } from 'node:util';

import { ConfigError, loadConfig } from '@/lib/config/server';
import { installDatabase } from '@/lib/db';
import { DatabaseLockedError, openDatabase } from '@/lib/db/open';
import { ApiError } from '@/lib/server/errors';
import { readJobCounts, readJobs, retryJobAsOperator, type JobRow } from '@/lib/server/jobs/admin';
import { JOB_LIST_STATES, jobIdParamsSchema, type JobListState } from '@/lib/validation/jobs';

const USAGE = `Usage:
  npm run jobs -- list [--state ${JOB_LIST_STATES.join('|')}] [--limit N]   (default: failed, 50)
  npm run jobs -- retry ID`;

class UsageError extends Error {}

/** A plain-text table: a header, a rule, and rows cut to their column's width. */
function formatTable(header: string[], rows: string[][], maxWidths: number[] = []): string {
  const cells = [header, ...rows].map((row) =>
    row.map((cell, index) => {
      const flat = cell.replace(/\s+/g, ' ').trim();
      const max = maxWidths[index];
      return max && flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
    }),
  );
  const widths = header.map((_, index) => Math.max(...cells.map((row) => row[index]!.length)));
  const line = (row: string[]) =>
    row.map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index]!))).join('  ');
  return [line(cells[0]!), widths.map((width) => '-'.repeat(width)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

const shortTime = (iso: string | null) => (iso ? iso.replace('T', ' ').slice(0, 19) : '-');

function jobLine(job: JobRow): string[] {
  const state = job.stuck ? 'stuck' : job.status === 'queued' && job.lastError ? 'retrying' : job.status;
  const time = job.status === 'failed' ? job.finishedAt : job.status === 'running' ? job.claimedAt : job.runAt;
  return [
    job.id,
    job.type,
    state,
    `${job.attempts}/${job.maxAttempts}`,
    shortTime(time),
    job.target?.label ?? '-',
    job.lastError ?? '-',
  ];
}

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { state: { type: 'string' }, limit: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  if (command !== 'list' && command !== 'retry') throw new UsageError(`Unknown command "${command}".`);
  const state = (values.state ?? 'failed') as JobListState;
  if (!JOB_LIST_STATES.includes(state)) throw new UsageError(`--state must be one of ${JOB_LIST_STATES.join(', ')}.`);
  const limit = Number(values.limit ?? 50);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
    throw new UsageError('--limit must be a whole number from 1 to 10000.');
  const id = rest[0];
  if (command === 'retry' && (!id || !jobIdParamsSchema.safeParse({ id }).success))
    throw new UsageError('retry needs the id of a job (a UUID, as `list` prints it).');

  const config = loadConfig();
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  installDatabase(handle);
  try {
    if (command === 'retry') {
      const job = await retryJobAsOperator(handle.db, id!);
      console.log(
        `Queued ${job.type} job ${job.id} to run again now (it was ${job.previousStatus}; attempt ${job.attempts + 1} of ${job.maxAttempts}).`,
      );
      if (handle.engine === 'pglite')
        console.log('It runs when `npm start` is next started (the embedded server runs the jobs).');
      return;
    }
    const { totals } = await readJobCounts(handle.db);
    console.log(
      `Jobs: ${totals.queued} queued, ${totals.running} running (${totals.stuck} stuck), ${totals.failed} failed, ${totals.done} done.`,
    );
    const { jobs, hasMore } = await readJobs(handle.db, state, { limit });
    if (jobs.length === 0) {
      console.log(`No ${state} jobs.`);
      return;
    }
    console.log(
      formatTable(
        [
          'ID',
          'TYPE',
          'STATE',
          'TRIES',
          state === 'failed' ? 'GAVE UP (UTC)' : state === 'stuck' || state === 'running' ? 'SINCE (UTC)' : 'DUE (UTC)',
          'TARGET',
          'LAST ERROR',
        ],
        jobs.map(jobLine),
        [36, 28, 8, 7, 19, 40, 100],
      ),
    );
    if (hasMore) console.log(`… more than ${limit}; use --limit to see more.`);
  } finally {
    await handle.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) console.error(`${error.message}\n${USAGE}`);
  else if (error instanceof ConfigError || error instanceof DatabaseLockedError || error instanceof ApiError)
    console.error(error.message);
  else console.error('npm run jobs failed:', error);
  process.exit(1);
});
