import 'server-only';

import { sql } from 'drizzle-orm';

import type { AdminReportDto, AdminReportListDto, ReportTargetSummary } from '@/lib/api-types';
import { getDb, queryRows } from '@/lib/db';
import { addBusinessDays } from '@/lib/format/business-days';
import { dueClock } from '@/lib/format/due-clock';
import { relativeTime } from '@/lib/format/relative-time';
import { REPORT_DUE_BUSINESS_DAYS, REPORT_REASON_LABELS, URGENT_REPORT_REASONS, type ReportReason, type ReportStatus, type ReportTargetType } from '@/lib/validation/community';

import { requireAdmin, type Actor } from '../auth/actor';

interface ReportRow {
  id: string;
  target_type: ReportTargetType;
  target_id: string;
  reason: ReportReason;
  details: string;
  status: ReportStatus;
  reporter_id: string | null;
  reporter_username: string | null;
  created_at: Date | string;
  resolved_at: Date | string | null;
  resolution_note: string | null;
  on_target: number | string;
  video_sid: string | null;
  video_title: string | null;
  video_owner: string | null;
  comment_body: string | null;
  comment_author: string | null;
  comment_video_sid: string | null;
  comment_video_title: string | null;
  profile_username: string | null;
  source: 'report' | 'notice';
  notifier_name: string | null;
  notifier_email: string | null;
  notifier_signature: string | null;
  due_at: Date | string | null;
  held_video: boolean;
  takedown_id: string | null;
  takedown_status: NonNullable<AdminReportDto['takedown']>['status'] | null;
  takedown_restore_at: Date | string | null;
  claimant_address: string | null;
  claimant_phone: string | null;
  takedown_work: string | null;
}

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));
const URGENT = sql.join(
  URGENT_REPORT_REASONS.map((reason) => sql`${reason}`),
  sql`, `,
);

/** A comment as a one-line excerpt for the queue. */
function excerpt(text: string, max = 140): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function targetOf(row: ReportRow): ReportTargetSummary | null {
  if (row.target_type === 'video') {
    if (!row.video_sid) return null;
    return { type: 'video', _id: row.target_id, streamVideoId: row.video_sid, title: row.video_title ?? '', uploader: { username: row.video_owner ?? '' }, link: `/video/${row.video_sid}` };
  }
  if (row.target_type === 'comment') {
    if (!row.comment_video_sid) return null;
    return {
      type: 'comment',
      _id: row.target_id,
      excerpt: excerpt(row.comment_body ?? ''),
      author: { username: row.comment_author ?? '' },
      video: { streamVideoId: row.comment_video_sid, title: row.comment_video_title ?? '' },
      link: `/video/${row.comment_video_sid}#comment-${row.target_id}`,
    };
  }
  if (!row.profile_username) return null;
  return { type: 'profile', _id: row.target_id, username: row.profile_username, link: `/profile/${encodeURIComponent(row.profile_username)}` };
}

function toAdminReportDto(row: ReportRow, now: number): AdminReportDto {
  const created = toDate(row.created_at);
  const due = row.due_at ? toDate(row.due_at) : addBusinessDays(created, REPORT_DUE_BUSINESS_DAYS);
  const clock = row.status === 'open' ? dueClock(due, now) : null;
  return {
    _id: row.id,
    targetType: row.target_type,
    targetId: row.target_id,
    target: targetOf(row),
    reason: row.reason,
    reasonLabel: REPORT_REASON_LABELS[row.reason].label,
    details: row.details,
    status: row.status,
    urgent: URGENT_REPORT_REASONS.includes(row.reason),
    reporter: row.reporter_id && row.reporter_username ? { _id: row.reporter_id, username: row.reporter_username } : null,
    createdAt: created.toISOString(),
    age: relativeTime(created, now),
    ageHours: Math.max(0, Math.floor((now - created.getTime()) / 3_600_000)),
    dueAt: due.toISOString(),
    overdue: clock?.overdue ?? false,
    clock: clock?.text ?? null,
    source: row.source,
    notifier: row.notifier_email ? { name: row.notifier_name ?? '', email: row.notifier_email, signature: row.notifier_signature ?? '' } : null,
    heldVideo: row.held_video,
    takedown:
      row.takedown_id && row.takedown_status
        ? {
            _id: row.takedown_id,
            status: row.takedown_status,
            restoreAt: row.takedown_restore_at ? toDate(row.takedown_restore_at).toISOString() : null,
            claimant: { address: row.claimant_address ?? '', phone: row.claimant_phone ?? '' },
            work: row.takedown_work ?? '',
          }
        : null,
    reportsOnTarget: Number(row.on_target),
    resolvedAt: row.resolved_at ? toDate(row.resolved_at).toISOString() : null,
    resolutionNote: row.resolution_note,
  };
}

/**
 * The moderators' queue. Open reports: the one due soonest first (48 hours
 * for non-consent and minors, seven business days for the rest; decision
 * 016), each with its clock. Notices carry their sender's contact details. Resolved and dismissed: newest decision first.
 */
export async function listReports(actor: Actor, status: ReportStatus, request: { page: number; limit: number }, now = Date.now()): Promise<AdminReportListDto> {
  requireAdmin(actor);
  const db = await getDb();
  const order =
    status === 'open'
      ? sql`coalesce(r.due_at, r.created_at + interval '9 days') ASC, (r.reason IN (${URGENT})) DESC, r.created_at ASC, r.id ASC`
      : sql`coalesce(r.resolved_at, r.created_at) DESC, r.id DESC`;
  const rows = await queryRows<ReportRow>(
    db,
    sql`SELECT r.id, r.target_type, r.target_id, r.reason, r.details, r.status, r.reporter_id, r.created_at, r.resolved_at, r.resolution_note,
               ru.username AS reporter_username,
               count(*) OVER (PARTITION BY r.target_type, r.target_id) AS on_target,
               v.stream_video_id AS video_sid, v.title AS video_title, vu.username AS video_owner,
               c.body AS comment_body, cu.username AS comment_author, cv.stream_video_id AS comment_video_sid, cv.title AS comment_video_title,
               pu.username AS profile_username,
               r.source, r.notifier_name, r.notifier_email, r.notifier_signature, r.due_at, r.held_video,
               t.id AS takedown_id, t.status AS takedown_status, t.restore_at AS takedown_restore_at,
               t.claimant_address, t.claimant_phone, t.work AS takedown_work
        FROM reports r
        LEFT JOIN copyright_takedowns t ON t.report_id = r.id
        LEFT JOIN users ru ON ru.id = r.reporter_id
        LEFT JOIN videos v ON r.target_type = 'video' AND v.id = r.target_id
        LEFT JOIN users vu ON vu.id = v.owner_id
        LEFT JOIN comments c ON r.target_type = 'comment' AND c.id = r.target_id
        LEFT JOIN users cu ON cu.id = c.author_id
        LEFT JOIN videos cv ON cv.id = c.video_id
        LEFT JOIN users pu ON r.target_type = 'profile' AND pu.id = r.target_id
        WHERE r.status = ${status}
        -- A row without due_at (inserted by old code) counts as due 7 business days (at most 9 calendar days) after it arrived.
        ORDER BY ${order}
        LIMIT ${request.limit + 1} OFFSET ${(request.page - 1) * request.limit}`,
  );
  const [counts] = await queryRows<Record<ReportStatus, number>>(
    db,
    sql`SELECT count(*) FILTER (WHERE status = 'open')::int AS open,
               count(*) FILTER (WHERE status = 'resolved')::int AS resolved,
               count(*) FILTER (WHERE status = 'dismissed')::int AS dismissed
        FROM reports`,
  );
  return {
    reports: rows.slice(0, request.limit).map((row) => toAdminReportDto(row, now)),
    counts: { open: Number(counts!.open), resolved: Number(counts!.resolved), dismissed: Number(counts!.dismissed) },
    pagination: { page: request.page, limit: request.limit, hasMore: rows.length > request.limit },
  };
}
