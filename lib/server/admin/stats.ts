import 'server-only';

import { sql } from 'drizzle-orm';

import type { AdminStatsDto } from '@/lib/api-types';
import { getDb, queryRows } from '@/lib/db';
import { addBusinessDays } from '@/lib/format/business-days';
import { REPORT_DUE_BUSINESS_DAYS, URGENT_REPORT_REASONS, type ReportReason } from '@/lib/validation/community';
import { requireAdmin, type Actor } from '../auth/actor';

const n = (value: unknown) => Number(value ?? 0);

/** The admin dashboard: members, videos by state, uploads per day, open reports and VIP count, in four queries. */
export async function getAdminStats(actor: Actor, days = 14, now = new Date()): Promise<AdminStatsDto> {
  requireAdmin(actor);
  const db = await getDb();
  const [members] = await queryRows<Record<string, unknown>>(
    db,
    sql`SELECT count(*) AS total,
               count(*) FILTER (WHERE email_verified_at IS NOT NULL) AS verified,
               count(*) FILTER (WHERE banned_at IS NOT NULL) AS banned,
               count(*) FILTER (WHERE is_admin) AS admins,
               count(*) FILTER (WHERE vip_until > now()) AS vip,
               count(*) FILTER (WHERE created_at > now() - interval '7 days') AS new_week
        FROM users`,
  );
  const [videos] = await queryRows<Record<string, unknown>>(
    db,
    sql`SELECT count(*) AS total,
               count(*) FILTER (WHERE moderation_status = 'pending') AS pending,
               count(*) FILTER (WHERE moderation_status = 'approved') AS approved,
               count(*) FILTER (WHERE moderation_status = 'rejected') AS rejected,
               count(*) FILTER (WHERE processing_state = 'queued') AS queued,
               count(*) FILTER (WHERE processing_state = 'processing') AS processing,
               count(*) FILTER (WHERE processing_state = 'ready') AS ready,
               count(*) FILTER (WHERE processing_state = 'failed') AS failed,
               count(*) FILTER (WHERE moderation_status = 'pending' AND processing_state = 'ready') AS awaiting
        FROM videos`,
  );
  const perDay = await queryRows<{ day: string; count: unknown }>(
    db,
    sql`SELECT to_char(d.day, 'YYYY-MM-DD') AS day, count(v.id) AS count
        FROM generate_series((now() AT TIME ZONE 'UTC')::date - ${days - 1}::int, (now() AT TIME ZONE 'UTC')::date, interval '1 day') AS d(day)
        LEFT JOIN videos v ON v.created_at >= d.day AT TIME ZONE 'UTC' AND v.created_at < (d.day + interval '1 day') AT TIME ZONE 'UTC'
        GROUP BY d.day ORDER BY d.day`,
  );
  // Open reports are few (they are worked off); their due dates need the business-day calendar, so count in code.
  const open = await queryRows<{ reason: ReportReason; created_at: Date | string; due_at: Date | string | null }>(
    db,
    sql`SELECT reason, created_at, due_at FROM reports WHERE status = 'open'`,
  );
  // Each report's own due time (48 hours for holds, decision 016); older rows without one fall back to 7 business days.
  const dueOf = (report: (typeof open)[number]) =>
    report.due_at ? new Date(report.due_at) : addBusinessDays(new Date(report.created_at), REPORT_DUE_BUSINESS_DAYS);
  const overdue = open.filter((report) => dueOf(report).getTime() < now.getTime()).length;
  return {
    members: {
      total: n(members!.total),
      verified: n(members!.verified),
      banned: n(members!.banned),
      admins: n(members!.admins),
      vip: n(members!.vip),
      newLast7Days: n(members!.new_week),
    },
    videos: {
      total: n(videos!.total),
      byModeration: { pending: n(videos!.pending), approved: n(videos!.approved), rejected: n(videos!.rejected) },
      byProcessing: {
        queued: n(videos!.queued),
        processing: n(videos!.processing),
        ready: n(videos!.ready),
        failed: n(videos!.failed),
      },
      awaitingReview: n(videos!.awaiting),
    },
    uploadsPerDay: perDay.map((row) => ({ day: row.day, count: n(row.count) })),
    reports: {
      open: open.length,
      overdue,
      urgent: open.filter((report) => URGENT_REPORT_REASONS.includes(report.reason)).length,
    },
    generatedAt: now.toISOString(),
  };
}
