import 'server-only';

import { sql } from 'drizzle-orm';

import { getConfig } from '@/lib/config/server';
import { getDb, queryRows, type Database, type Executor } from '@/lib/db';
import { GROUND_INFO, type DecisionGround } from '@/lib/trust/grounds';
import { DECISION_ACTION_LABELS, DECISION_SOURCE_LABELS, type AppealDto, type DecisionDto } from '@/lib/trust/statements';
import type { DecisionLinkKey } from '@/lib/validation/trust';

import { isAdmin, memberOf, requireMember, type Actor } from '../auth/actor';
import { ApiError } from '../errors';
import { enqueue } from '../jobs/queue';
import type { JobHandler } from '../jobs/worker';
import { linkEmail, sendMail } from '../mail';

import { checkDecisionKey, signedDecisionUrl } from './decision-links';

/**
 * Reading statements of reasons (DSA Art. 17): the member a decision is
 * about reads it at /decisions/{id} (and lists theirs), admins read any, and
 * a member who cannot log in (banned) reads theirs through the signed link
 * their email carries. Everyone else gets 404, so ids reveal nothing.
 */

export const DECISION_MESSAGES = {
  notFound: 'Decision not found',
  linkExpired:
    'This link has expired. Links in our emails work until the appeal period ends. Log in to see the decision, or write to us.',
  appealOfAppeal:
    'This decision is the outcome of an appeal, and an appeal’s outcome cannot be appealed again here. You can take it to a certified out-of-court dispute settlement body or to a court.',
  alreadyAppealed:
    'You have already appealed this decision. An admin who did not make it will review your appeal, and we will tell you the outcome.',
  appealDecided:
    'Your appeal of this decision has been decided, and an appeal’s outcome cannot be appealed again here. You can take it to a certified out-of-court dispute settlement body or to a court.',
  deadline: (date: string) => `The time to appeal this decision ended on ${date}.`,
} as const;

export const dateText = (value: Date | string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(value));

export interface DecisionRow {
  id: string;
  subject_user_id: string | null;
  target_type: string;
  target_id: string;
  target_label: string;
  action: string;
  ground: string;
  explanation: string;
  automated: boolean;
  source: string;
  decided_by: string | null;
  created_at: Date | string;
  appeal_until: Date | string;
  appeal_id: string | null;
  appeal_status: 'open' | 'upheld' | 'reversed' | null;
  appeal_statement: string | null;
  appeal_created_at: Date | string | null;
  appeal_decided_at: Date | string | null;
  appeal_outcome_note: string | null;
}

export const DECISION_COLUMNS = sql`d.id, d.subject_user_id, d.target_type, d.target_id, d.target_label, d.action, d.ground, d.explanation,
  d.automated, d.source, d.decided_by, d.created_at, d.appeal_until,
  a.id AS appeal_id, a.status AS appeal_status, a.statement AS appeal_statement, a.created_at AS appeal_created_at,
  a.decided_at AS appeal_decided_at, a.outcome_note AS appeal_outcome_note`;

const iso = (value: Date | string) => new Date(value).toISOString();

/** Why this decision cannot be appealed now, or null when it can. */
export function appealRefusal(row: DecisionRow, now = Date.now()): string | null {
  if (row.source === 'appeal' || row.action === 'video_restored') return DECISION_MESSAGES.appealOfAppeal;
  if (row.appeal_status === 'open') return DECISION_MESSAGES.alreadyAppealed;
  if (row.appeal_status) return DECISION_MESSAGES.appealDecided;
  if (new Date(row.appeal_until).getTime() <= now) return DECISION_MESSAGES.deadline(dateText(row.appeal_until));
  return null;
}

export function toDecisionDto(row: DecisionRow, now = Date.now()): DecisionDto {
  const groundInfo = GROUND_INFO[row.ground as DecisionGround] ?? null;
  const appeal: AppealDto | null = row.appeal_id
    ? {
        _id: row.appeal_id,
        status: row.appeal_status!,
        statement: row.appeal_statement ?? '',
        createdAt: iso(row.appeal_created_at!),
        decidedAt: row.appeal_decided_at ? iso(row.appeal_decided_at) : null,
        outcomeNote: row.appeal_outcome_note,
      }
    : null;
  return {
    _id: row.id,
    action: row.action,
    actionLabel: DECISION_ACTION_LABELS[row.action] ?? row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    targetLabel: row.target_label,
    ground: row.ground,
    groundInfo,
    explanation: row.explanation,
    automated: row.automated,
    source: row.source,
    sourceLabel: DECISION_SOURCE_LABELS[row.source] ?? row.source,
    createdAt: iso(row.created_at),
    appealUntil: iso(row.appeal_until),
    appealRefusal: appealRefusal(row, now),
    appeal,
  };
}

export async function decisionRow(db: Executor, id: string, lock = false): Promise<DecisionRow | null> {
  const [row] = await queryRows<DecisionRow>(
    db,
    sql`SELECT ${DECISION_COLUMNS} FROM moderation_decisions d LEFT JOIN appeals a ON a.decision_id = d.id
        WHERE d.id = ${id} ${lock ? sql`FOR UPDATE OF d` : sql``}`,
  );
  return row ?? null;
}

/** Who is reading: an admin, the member it is about, or the holder of its signed link. */
export type DecisionReader = 'admin' | 'subject' | 'link';

/**
 * The decision and who reads it, or the refusal: a visitor without a link
 * must log in (401, or 403 for a banned account's token), anyone it is not
 * about gets 404 (as if it did not exist), a genuine link past its date 410.
 */
export async function readableDecision(
  db: Executor,
  actor: Actor,
  id: string,
  key: DecisionLinkKey = {},
): Promise<{ row: DecisionRow; reader: DecisionReader }> {
  const member = memberOf(actor);
  const hasKey = Boolean(key.e || key.k);
  if (!member && !hasKey) requireMember(actor);
  const row = await decisionRow(db, id);
  if (!row) throw new ApiError(404, DECISION_MESSAGES.notFound);
  if (member && row.subject_user_id === member.id) return { row, reader: 'subject' };
  if (hasKey) {
    const state = checkDecisionKey(row.id, row.subject_user_id, key);
    if (state === 'valid') return { row, reader: 'link' };
    if (state === 'expired') throw new ApiError(410, DECISION_MESSAGES.linkExpired);
  }
  if (isAdmin(actor)) return { row, reader: 'admin' };
  throw new ApiError(404, DECISION_MESSAGES.notFound);
}

/** One statement of reasons, for /decisions/{id} and GET /api/decisions/{id}. */
export async function getDecision(
  actor: Actor,
  id: string,
  key: DecisionLinkKey = {},
): Promise<{ decision: DecisionDto; reader: DecisionReader }> {
  const db = await getDb();
  const { row, reader } = await readableDecision(db, actor, id, key);
  return { decision: toDecisionDto(row), reader };
}

/** "Decisions about you": the caller's statements of reasons, newest first. */
export async function listMyDecisions(
  actor: Actor,
  query: { page: number; limit: number },
): Promise<{ decisions: DecisionDto[]; pagination: { page: number; limit: number; hasMore: boolean } }> {
  const member = requireMember(actor);
  const db = await getDb();
  const rows = await queryRows<DecisionRow>(
    db,
    sql`SELECT ${DECISION_COLUMNS} FROM moderation_decisions d LEFT JOIN appeals a ON a.decision_id = d.id
        WHERE d.subject_user_id = ${member.user.id}
        ORDER BY d.created_at DESC, d.id DESC
        LIMIT ${query.limit + 1} OFFSET ${(query.page - 1) * query.limit}`,
  );
  return {
    decisions: rows.slice(0, query.limit).map((row) => toDecisionDto(row)),
    pagination: { page: query.page, limit: query.limit, hasMore: rows.length > query.limit },
  };
}

// ---------- Emails ----------

export const DECISION_EMAIL_JOB = 'trust.decision-email';
/** A link in an email stays usable at least this long, even when the appeal window is nearly over (an outcome). */
const EMAIL_LINK_MIN_DAYS = 30;

/**
 * Queues the email for a statement (kind 'statement': a ban, which the
 * member cannot read in the app) or an appeal's outcome, in the caller's
 * transaction; the worker sends it. Call wakeWorkers() after the commit.
 */
export async function queueDecisionEmail(db: Database, decisionId: string, kind: 'statement' | 'outcome'): Promise<void> {
  await enqueue(db, DECISION_EMAIL_JOB, { decisionId, kind }, { dedupeKey: `${DECISION_EMAIL_JOB}:${kind}:${decisionId}` });
}

/** The job: the email with a signed link to the statement (which is also where the member appeals). */
export const sendDecisionEmail: JobHandler = async (job) => {
  const { decisionId, kind } = job.payload as { decisionId?: unknown; kind?: unknown };
  if (typeof decisionId !== 'string' || (kind !== 'statement' && kind !== 'outcome')) return;
  const db = await getDb();
  const row = await decisionRow(db, decisionId);
  if (!row?.subject_user_id) return;
  const [user] = await queryRows<{ email: string; username: string }>(
    db,
    sql`SELECT email, username FROM users WHERE id = ${row.subject_user_id}`,
  );
  if (!user) return;
  const { siteName } = getConfig();
  const expires = new Date(Math.max(new Date(row.appeal_until).getTime(), Date.now() + EMAIL_LINK_MIN_DAYS * 86_400_000));
  const url = signedDecisionUrl(row.id, row.subject_user_id, expires);
  const dto = toDecisionDto(row);
  const lines =
    kind === 'statement'
      ? [
          `${dto.actionLabel}${dto.targetLabel ? ` (${dto.targetLabel})` : ''}.`,
          `Ground: ${dto.groundInfo?.reference ?? dto.ground}.`,
          ...(dto.explanation ? [`Why: ${dto.explanation}`] : []),
          `You can read the full statement of reasons and appeal it until ${dateText(row.appeal_until)}. An admin who did not make the decision will review your appeal.`,
        ]
      : [
          `We reviewed your appeal about “${dto.targetLabel || dto.actionLabel}”.`,
          row.appeal_status === 'reversed'
            ? 'Outcome: the decision was wrong, and we reversed it.'
            : 'Outcome: the decision stands.',
          ...(row.appeal_outcome_note ? [`Note from the reviewer: ${row.appeal_outcome_note}`] : []),
        ];
  await sendMail(
    linkEmail({
      to: user.email,
      subject: kind === 'statement' ? `${siteName}: ${dto.actionLabel.toLowerCase()}` : `${siteName}: the outcome of your appeal`,
      greeting: `Hi ${user.username},`,
      lines,
      action: kind === 'statement' ? 'Read the decision and appeal' : 'Read the outcome',
      url,
      footer: 'This link opens only this decision, and only until the date in it. Do not forward it.',
    }),
  );
};

export const DECISION_EMAIL_JOB_HANDLERS: Record<string, JobHandler> = { [DECISION_EMAIL_JOB]: sendDecisionEmail };
