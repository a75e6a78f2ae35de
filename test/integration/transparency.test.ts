import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { installDatabase } from '@/lib/db';
import { appeals, moderationDecisions, reports } from '@/lib/db/schema';
import { transparencyReport } from '@/lib/server/trust/transparency';
import { halfYearOf } from '@/lib/trust/transparency';

import { ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-transparency-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const at = (iso: string) => new Date(iso);
const HOUR = 3_600_000;

describe('half-years', () => {
  it.each([
    ['2026-01-01T00:00:00Z', 2026, 1],
    ['2026-06-30T23:59:59.999Z', 2026, 1],
    ['2026-07-01T00:00:00Z', 2026, 2],
    ['2026-12-31T23:59:59Z', 2026, 2],
  ])('%s is in %i H%i (UTC)', (iso, year, half) => {
    expect(halfYearOf(at(iso))).toEqual({ year, half });
  });
});

describe.each(ENGINES)('the transparency report on %s', (engine) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    const db = database.db;
    let key = 0;
    const report = (reason: 'underage' | 'spam' | 'copyright', createdAt: string, resolvedHours: number | null) =>
      db.insert(reports).values({
        targetType: 'video',
        targetId: crypto.randomUUID(),
        reason,
        reporterKey: `k${key++}`,
        createdAt: at(createdAt),
        status: resolvedHours === null ? 'open' : 'resolved',
        resolvedAt: resolvedHours === null ? null : new Date(at(createdAt).getTime() + resolvedHours * HOUR),
      });
    // H1 2026: the last second of June counts here; two resolved in 2 and 4 hours (median 3), one open.
    await report('underage', '2026-06-30T23:59:59Z', 2);
    await report('spam', '2026-03-01T10:00:00Z', 4);
    await report('spam', '2026-02-01T10:00:00Z', null);
    // H2 2026: the first second of July; resolved in 1, 10 and 100 hours (median 10).
    await report('copyright', '2026-07-01T00:00:00Z', 1);
    await report('underage', '2026-08-01T00:00:00Z', 10);
    await report('underage', '2026-08-02T00:00:00Z', 100);
    // H2 2025 and a report from long before the report reaches (ignored).
    await report('spam', '2025-12-31T23:59:59Z', 48);
    await report('spam', '2019-01-01T00:00:00Z', 1);

    const decision = async (
      action: 'video_rejected' | 'video_hidden' | 'account_banned',
      createdAt: string,
      automated = false,
    ) => {
      const [row] = await db
        .insert(moderationDecisions)
        .values({
          subjectUserId: null,
          targetType: 'video',
          targetId: `t${key++}`,
          action,
          ground: 'standards-behaviour',
          automated,
          source: 'moderation',
          createdAt: at(createdAt),
          appealUntil: at('2027-06-01T00:00:00Z'),
        })
        .returning({ id: moderationDecisions.id });
      return row!.id;
    };
    const a = await decision('video_rejected', '2026-06-30T23:59:59Z');
    const b = await decision('video_hidden', '2026-07-01T00:00:00Z', true);
    const c = await decision('video_rejected', '2026-07-02T00:00:00Z');
    const d = await decision('account_banned', '2026-08-02T00:00:00Z');
    await db.insert(appeals).values([
      {
        decisionId: a,
        statement: 'x',
        status: 'upheld',
        createdAt: at('2026-06-30T23:59:59Z'),
        decidedAt: at('2026-07-01T05:59:59Z'),
      },
      {
        decisionId: b,
        statement: 'x',
        status: 'reversed',
        createdAt: at('2026-07-01T01:00:00Z'),
        decidedAt: at('2026-07-01T03:00:00Z'),
      },
      {
        decisionId: c,
        statement: 'x',
        status: 'upheld',
        createdAt: at('2026-07-03T00:00:00Z'),
        decidedAt: at('2026-07-03T06:00:00Z'),
      },
      { decisionId: d, statement: 'x', status: 'open', createdAt: at('2026-08-03T00:00:00Z') },
    ]);
  });
  afterAll(() => database.destroy());

  it('counts per half-year from the data, with the boundaries in UTC, newest first', async () => {
    const report = await transparencyReport(database.db, at('2026-09-15T12:00:00Z'));
    expect(report.periods.map((p) => p.key)).toEqual(['2026-H2', '2026-H1', '2025-H2']);
    const [h2, h1, before] = report.periods;

    expect(h2).toMatchObject({
      label: 'July to December 2026',
      start: '2026-07-01',
      end: '2027-01-01',
      current: true,
      notices: { total: 3, byReason: { copyright: 1, underage: 2 } },
      actions: {
        total: 3,
        automated: 1,
        human: 2,
        byAction: {
          video_hidden: { automated: 1, human: 0 },
          video_rejected: { automated: 0, human: 1 },
          account_banned: { automated: 0, human: 1 },
        },
      },
      medianHoursToAction: 10,
      appeals: { received: 3, open: 1, upheld: 1, reversed: 1, medianHoursToDecision: 4 },
    });
    expect(h1).toMatchObject({
      label: 'January to June 2026',
      current: false,
      notices: { total: 3, byReason: { underage: 1, spam: 2 } },
      actions: { total: 1, automated: 0, human: 1 },
      medianHoursToAction: 3,
      appeals: { received: 1, upheld: 1, reversed: 0, open: 0, medianHoursToDecision: 6 },
    });
    expect(before).toMatchObject({
      key: '2025-H2',
      notices: { total: 1 },
      medianHoursToAction: 48,
      actions: { total: 0 },
      appeals: { received: 0, medianHoursToDecision: null },
    });
  });

  it('reaches back at most five years, and shows only the current half-year before anything happened', async () => {
    const later = await transparencyReport(database.db, at('2031-03-01T00:00:00Z'));
    expect(later.periods).toHaveLength(10);
    expect(later.periods[0]!.key).toBe('2031-H1');
    expect(later.periods.at(-1)!.key).toBe('2026-H2');
    // 2019's report is older than any period shown, so it is in none.
    const early = await transparencyReport(database.db, at('2019-03-01T00:00:00Z'));
    expect(early.periods.map((p) => p.key)).toEqual(['2019-H1']);
    expect(early.periods[0]!.notices.total).toBe(1);
    const empty = await transparencyReport(database.db, at('2010-03-01T00:00:00Z'));
    expect(empty.periods).toEqual([
      expect.objectContaining({ key: '2010-H1', notices: { total: 0, byReason: {}, bySource: null }, medianHoursToAction: null }),
    ]);
  });
});
