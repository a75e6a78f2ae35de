import 'server-only';

import { sql } from 'drizzle-orm';

import { getDb, queryRows, type Executor } from '@/lib/db';
import { halfYearBounds, halfYearOf, type HalfYearReport, type TransparencyReport } from '@/lib/trust/transparency';

/**
 * The public transparency report (DSA Art. 15 and 24, and what card networks
 * ask adult merchants to show): per half-year, in UTC, the notices and
 * reports received by reason (and by source once reports carry one), the
 * actions taken (statements of reasons by action, automated or by a
 * person), the median time from a report to its resolution, and appeals
 * with their outcomes and median time to decide. Every number is counted
 * from the tables when the page is rendered; nothing is typed in.
 */

/** How many half-years the page shows at most (five years). */
export const TRANSPARENCY_PERIODS_MAX = 10;

const PERIOD = (column: string) =>
  sql.raw(
    `extract(year from ${column} AT TIME ZONE 'UTC')::int AS year, (CASE WHEN extract(month from ${column} AT TIME ZONE 'UTC') <= 6 THEN 1 ELSE 2 END)::int AS half`,
  );

interface Keyed {
  year: number;
  half: number;
}

const keyOf = (row: Keyed) => `${row.year}-H${row.half}`;
const hours = (seconds: number | string | null) => (seconds === null ? null : Math.round((Number(seconds) / 3600) * 10) / 10);

/** Whether the reports table says where each came from (a public notice or a member's report); the notices engineer adds it. */
async function reportsHaveSource(db: Executor): Promise<boolean> {
  const rows = await queryRows<{ found: number }>(
    db,
    sql`SELECT 1 AS found FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'reports' AND column_name = 'source'`,
  );
  return rows.length > 0;
}

/**
 * Notices and reports per half-year: by reason, and by source when the
 * column exists. Kept in one function so the counting of notices can
 * change in one place.
 */
async function noticeCounts(db: Executor, since: Date): Promise<Map<string, HalfYearReport['notices']>> {
  const withSource = await reportsHaveSource(db);
  const rows = await queryRows<Keyed & { reason: string; source: string | null; n: number }>(
    db,
    sql`SELECT ${PERIOD('created_at')}, reason, ${withSource ? sql.raw('source::text') : sql`NULL::text`} AS source, count(*)::int AS n
        FROM reports WHERE created_at >= ${since} GROUP BY 1, 2, 3, 4`,
  );
  const result = new Map<string, HalfYearReport['notices']>();
  for (const row of rows) {
    const entry = result.get(keyOf(row)) ?? { total: 0, byReason: {}, bySource: withSource ? {} : null };
    entry.total += row.n;
    entry.byReason[row.reason] = (entry.byReason[row.reason] ?? 0) + row.n;
    if (entry.bySource && row.source) entry.bySource[row.source] = (entry.bySource[row.source] ?? 0) + row.n;
    result.set(keyOf(row), entry);
  }
  return result;
}

/** Builds the report for the half-years from the first recorded event (at most TRANSPARENCY_PERIODS_MAX) to the one `now` is in. */
export async function transparencyReport(db: Executor, now = new Date()): Promise<TransparencyReport> {
  const current = halfYearOf(now);
  const periods: { year: number; half: 1 | 2 }[] = [];
  for (
    let { year, half } = current;
    periods.length < TRANSPARENCY_PERIODS_MAX;
    half === 1 ? ((half = 2), (year -= 1)) : (half = 1)
  )
    periods.push({ year, half });
  const oldest = periods[periods.length - 1]!;
  const since = halfYearBounds(oldest.year, oldest.half).start;

  const notices = await noticeCounts(db, since);
  const actions = await queryRows<Keyed & { action: string; automated: boolean; n: number }>(
    db,
    sql`SELECT ${PERIOD('created_at')}, action, automated, count(*)::int AS n FROM moderation_decisions WHERE created_at >= ${since} GROUP BY 1, 2, 3, 4`,
  );
  const toAction = await queryRows<Keyed & { median: number | string | null }>(
    db,
    sql`SELECT ${PERIOD('created_at')}, percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch from resolved_at - created_at)) AS median
        FROM reports WHERE created_at >= ${since} AND resolved_at IS NOT NULL GROUP BY 1, 2`,
  );
  const appealRows = await queryRows<
    Keyed & { received: number; open: number; upheld: number; reversed: number; median: number | string | null }
  >(
    db,
    sql`SELECT ${PERIOD('created_at')}, count(*)::int AS received,
               count(*) FILTER (WHERE status = 'open')::int AS open,
               count(*) FILTER (WHERE status = 'upheld')::int AS upheld,
               count(*) FILTER (WHERE status = 'reversed')::int AS reversed,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch from decided_at - created_at)) FILTER (WHERE decided_at IS NOT NULL) AS median
        FROM appeals WHERE created_at >= ${since} GROUP BY 1, 2`,
  );

  // Only half-years from the first one with any data: an empty site shows the current one alone.
  const withData = new Set([...notices.keys(), ...actions.map(keyOf), ...appealRows.map(keyOf)]);
  const currentKey = `${current.year}-H${current.half}`;
  const lastWithData = periods.findLastIndex((period) => withData.has(`${period.year}-H${period.half}`));
  const shown = periods.slice(0, Math.max(lastWithData, 0) + 1);

  return {
    generatedAt: now.toISOString(),
    periods: shown.map(({ year, half }): HalfYearReport => {
      const bounds = halfYearBounds(year, half);
      const byAction: HalfYearReport['actions']['byAction'] = {};
      let automated = 0;
      let human = 0;
      for (const row of actions.filter((r) => keyOf(r) === bounds.key)) {
        const entry = (byAction[row.action] ??= { automated: 0, human: 0 });
        if (row.automated) {
          entry.automated += row.n;
          automated += row.n;
        } else {
          entry.human += row.n;
          human += row.n;
        }
      }
      const appeal = appealRows.find((row) => keyOf(row) === bounds.key);
      return {
        key: bounds.key,
        label: bounds.label,
        start: bounds.start.toISOString().slice(0, 10),
        end: bounds.end.toISOString().slice(0, 10),
        current: bounds.key === currentKey,
        notices: notices.get(bounds.key) ?? { total: 0, byReason: {}, bySource: null },
        actions: { total: automated + human, automated, human, byAction },
        medianHoursToAction: hours(toAction.find((row) => keyOf(row) === bounds.key)?.median ?? null),
        appeals: appeal
          ? {
              received: appeal.received,
              open: appeal.open,
              upheld: appeal.upheld,
              reversed: appeal.reversed,
              medianHoursToDecision: hours(appeal.median),
            }
          : { received: 0, open: 0, upheld: 0, reversed: 0, medianHoursToDecision: null },
      };
    }),
  };
}

/** The report for the public page. */
export async function loadTransparencyReport(now = new Date()): Promise<TransparencyReport> {
  return transparencyReport(await getDb(), now);
}
