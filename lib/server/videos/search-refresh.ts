import 'server-only';

import { getDb, type Database } from '@/lib/db';

import { forgetOldRuns, scheduleNextRun, scheduleRecurring, type RecurringJob } from '../jobs/recurring';
import type { JobHandler } from '../jobs/worker';
import { logger } from '../log';

import { prefixTsQuery, rankMatches, SEARCH_RESULT_CAP } from './search';
import { commonTitleWords, forgetRanking, rankingKey, rankingsInUse, storeRanking, type RankingQuery } from './search-rankings';

const log = logger('search');

/**
 * Ranks the stored search rankings again (decision 032), so that a common
 * word's first search in any process reads its ranking instead of ranking
 * tens of thousands of matches, and a newly public video joins them within
 * one period. Every five minutes; a stored ranking is read for three periods
 * (STORED_RANKING_FRESH_MS), so one late run changes nothing.
 */
export const REFRESH_SEARCH_RANKINGS: RecurringJob = { type: 'refresh-search-rankings', everyMs: 5 * 60_000 };

/** A stored query nobody searched for a day is dropped. */
const KEEP_UNUSED_MS = 24 * 60 * 60_000;
/** At most this many rankings per run: at about 50 ms each at a million videos, under half a minute of the database. */
const MAX_RANKINGS_PER_RUN = 400;
/** The catalogue's most common title words are ranked before anyone searches them, at most this many. */
const COMMON_WORDS = 100;

/**
 * Ranks again every query searched within a day, and the catalogue's most
 * common title words (those whose matches fill the cap) as a visitor would
 * type them; keeps those that still fill the cap and forgets the others
 * (which are cheap to rank at the request).
 */
export async function refreshSearchRankings(db: Database): Promise<{ stored: number; dropped: number }> {
  const queries = new Map<string, RankingQuery>();
  for (const query of await rankingsInUse(db, KEEP_UNUSED_MS, MAX_RANKINGS_PER_RUN)) queries.set(rankingKey(query), query);
  for (const word of await commonTitleWords(db, SEARCH_RESULT_CAP, COMMON_WORDS)) {
    const tsquery = prefixTsQuery(word);
    if (!tsquery || queries.size >= MAX_RANKINGS_PER_RUN) continue;
    const query: RankingQuery = { tsquery, lowered: word, sort: 'relevance' };
    queries.set(rankingKey(query), query);
  }
  let stored = 0;
  let dropped = 0;
  for (const [key, query] of queries) {
    const ids = await rankMatches(db, query);
    if (ids.length === SEARCH_RESULT_CAP) {
      await storeRanking(db, query, ids);
      stored += 1;
    } else {
      await forgetRanking(db, key);
      dropped += 1;
    }
  }
  return { stored, dropped };
}

export const refreshSearchRankingsJob: JobHandler = async () => {
  const db = await getDb();
  await scheduleNextRun(db, REFRESH_SEARCH_RANKINGS);
  await forgetOldRuns(db, REFRESH_SEARCH_RANKINGS);
  const started = performance.now();
  const { stored, dropped } = await refreshSearchRankings(db);
  if (stored + dropped > 0)
    log.info(
      { stored, dropped, ms: Math.round(performance.now() - started) },
      `search rankings: ${stored} stored, ${dropped} dropped`,
    );
};

/** Queues the refresh of the slot `at` falls in; every process calls it at start (see lib/server/jobs/recurring.ts). */
export const scheduleSearchRankingRefresh = (db: Database, at: number = Date.now()) =>
  scheduleRecurring(db, REFRESH_SEARCH_RANKINGS, at);

export const SEARCH_JOB_HANDLERS: Record<string, JobHandler> = {
  [REFRESH_SEARCH_RANKINGS.type]: refreshSearchRankingsJob,
};
