import 'server-only';

import { and, desc, eq, sql } from 'drizzle-orm';

import type {
  MyVerificationDto,
  VerificationDetailDto,
  VerificationDocumentDto,
  VerificationState,
  VerificationSummaryDto,
} from '@/lib/api-types';
import { getConfig } from '@/lib/config/server';
import { getDb, queryRows, type Database } from '@/lib/db';
import { identityVerifications, privateDocuments, users, type IdentityVerification } from '@/lib/db/schema';
import { ageOn, todayIso } from '@/lib/validation/auth';
import {
  VERIFICATION_MESSAGES,
  verificationFormSchema,
  type VerificationListQuery,
  type VerificationReview,
} from '@/lib/validation/verification';

import { recordAdminAction } from '../admin/audit';
import { refuseOwnCase } from '../admin/duties';
import { requireAdmin, requireMember, type Actor } from '../auth/actor';
import { ApiError, badRequest, conflict, parseInput } from '../errors';
import { consume, giveBack, tooOften } from '../rate-limit';
import type { Form } from '../route-handler';
import { linkEmail, sendMail } from '../mail';
import { notify } from '../notifications';
import { decisionLink, recordDecision } from '../trust/decisions';
import { readPrivateDocument, verificationAvailable, VERIFICATION_UNAVAILABLE_MESSAGE } from '../trust/documents';

import { getVerificationProvider } from './provider';
import { logger } from '@/lib/server/log';

const log = logger('mail');

/**
 * Verified uploaders (issue 12, item 1; decision 014). A member sends their
 * legal name, date of birth, an ID and a selfie holding it; the configured
 * provider (manual: an admin) approves or rejects; a rejected member sends
 * new documents. A video is approved only when its uploader is verified
 * (the approval gate check below). Documents are sealed in
 * private_documents and read only through viewDocument, which audits.
 */

export const VERIFICATION_PAGE = '/verify';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The member form's cap: two documents of at most 10 MB each, plus the text fields. */
export const MAX_VERIFICATION_FORM_BYTES = 21 * 1024 * 1024;
export const VERIFICATION_FORM_TOO_LARGE = 'The documents are too large together. Each must be 10 MB or smaller.';

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** The member's newest submission, or none. */
async function latestOf(db: Database, userId: string): Promise<IdentityVerification | null> {
  const [row] = await db
    .select()
    .from(identityVerifications)
    .where(eq(identityVerifications.userId, userId))
    .orderBy(desc(identityVerifications.submittedAt))
    .limit(1);
  return row ?? null;
}

/** Whether the member has an approved verification (the approval gate asks this). */
export async function isVerifiedUploader(db: Database, userId: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`SELECT 1 FROM identity_verifications WHERE user_id = ${userId} AND status = 'approved' LIMIT 1`,
  );
  return rows.length > 0;
}

/** The approval gate's check (lib/server/trust/approval-gate.ts): the uploader must be verified. */
export async function uploaderVerifiedCheck(db: Database, video: { ownerId: string }): Promise<string | null> {
  return (await isVerifiedUploader(db, video.ownerId)) ? null : VERIFICATION_MESSAGES.gate;
}

/** Verification states of several members at once (the moderation queue's badges): approved wins, else the newest. */
export async function verificationStates(db: Database, userIds: readonly string[]): Promise<Map<string, VerificationState>> {
  const states = new Map<string, VerificationState>();
  if (userIds.length === 0) return states;
  const rows = await queryRows<{ user_id: string; status: VerificationState }>(
    db,
    sql`SELECT DISTINCT ON (user_id) user_id, status FROM identity_verifications
        WHERE user_id IN (${sql.join(
          [...new Set(userIds)].map((id) => sql`${id}`),
          sql`, `,
        )})
        ORDER BY user_id, (status = 'approved') DESC, submitted_at DESC`,
  );
  for (const row of rows) states.set(row.user_id, row.status);
  return states;
}

function toMine(row: IdentityVerification | null): MyVerificationDto {
  return {
    _id: row?.id ?? null,
    status: row?.status ?? 'none',
    available: verificationAvailable(),
    submittedAt: iso(row?.submittedAt ?? null),
    reviewedAt: iso(row?.reviewedAt ?? null),
    rejectionReason: row?.status === 'rejected' ? row.rejectionReason : null,
    decisionLink: row?.status === 'rejected' && row.decisionId ? decisionLink(row.decisionId) : null,
  };
}

/** The caller's own verification: none, under review, verified, or rejected with the reason. */
export async function getMyVerification(actor: Actor): Promise<MyVerificationDto> {
  const member = requireMember(actor);
  return toMine(await latestOf(await getDb(), member.user.id));
}

const fileBytes = async (file: File | undefined) => (file ? new Uint8Array(await file.arrayBuffer()) : null);

/**
 * Takes the member's form: legal name, date of birth (18+), `idDocument`
 * (a photo or PDF) and `selfie` (a photo). The row and both sealed documents
 * are stored in one transaction. One submission under review at a time
 * (409), none once verified (409); 503 when documents cannot be sealed
 * (production without VERIFICATION_KEY).
 */
export async function submitVerification(
  actor: Actor,
  form: Form,
): Promise<{ message: string; verification: MyVerificationDto }> {
  const member = requireMember(actor);
  // Before reading the files: production without VERIFICATION_KEY cannot seal them (the form already says so).
  if (!verificationAvailable()) throw new ApiError(503, VERIFICATION_UNAVAILABLE_MESSAGE);
  const input = parseInput(verificationFormSchema, form.fields);
  const idDocument = await fileBytes(form.files.idDocument);
  if (!idDocument) throw badRequest(VERIFICATION_MESSAGES.idDocumentRequired, { field: 'idDocument' });
  const selfie = await fileBytes(form.files.selfie);
  if (!selfie) throw badRequest(VERIFICATION_MESSAGES.selfieRequired, { field: 'selfie' });
  const provider = getVerificationProvider();
  const userId = member.user.id;
  // Before the documents are sealed; a refusal (one already under review, a file that is no document) seals nothing and is given back.
  await consume('verificationsPerMember', userId, tooOften('sent an identity verification'));
  const db = await getDb();
  const row = await db
    .transaction(async (tx) => {
      // One submission at a time per member, whatever the concurrency (the partial unique index is the backstop).
      await queryRows(tx, sql`SELECT pg_advisory_xact_lock(hashtext(${`chrysalis:verification:${userId}`}))`);
      const states = await queryRows<{ status: string }>(
        tx,
        sql`SELECT status FROM identity_verifications WHERE user_id = ${userId} AND status IN ('pending', 'approved')`,
      );
      if (states.some((state) => state.status === 'approved')) throw conflict(VERIFICATION_MESSAGES.alreadyApproved);
      if (states.length) throw conflict(VERIFICATION_MESSAGES.alreadyPending);
      const documents = await provider.submit(tx, userId, { ...input, idDocument, selfie });
      const [created] = await tx
        .insert(identityVerifications)
        .values({ userId, provider: provider.name, legalName: input.legalName, dateOfBirth: input.dateOfBirth, ...documents })
        .returning();
      return created!;
    })
    .catch(async (error: unknown) => {
      if (error instanceof ApiError && error.status < 500) await giveBack('verificationsPerMember', userId);
      throw error;
    });
  return { message: VERIFICATION_MESSAGES.submitted, verification: toMine(row) };
}

// ---------- Admin review ----------

interface SummaryRow {
  id: string;
  status: 'pending' | 'approved' | 'rejected';
  provider: string;
  user_id: string;
  username: string | null;
  legal_name: string;
  date_of_birth: string | Date;
  submitted_at: string | Date;
  reviewed_at: string | Date | null;
  reviewer: string | null;
  rejection_reason: string | null;
  id_document_id: string | null;
  selfie_document_id: string | null;
}

const SUMMARY_COLUMNS = sql`iv.id, iv.status, iv.provider, iv.user_id, u.username, iv.legal_name, iv.date_of_birth::text AS date_of_birth, iv.submitted_at,
  iv.reviewed_at, r.username AS reviewer, iv.rejection_reason, iv.id_document_id, iv.selfie_document_id`;
const SUMMARY_FROM = sql`identity_verifications iv LEFT JOIN users u ON u.id = iv.user_id LEFT JOIN users r ON r.id = iv.reviewed_by`;

const toSummary = (row: SummaryRow): VerificationSummaryDto => ({
  _id: row.id,
  status: row.status,
  provider: row.provider,
  member: { _id: row.user_id, username: row.username },
  legalName: row.legal_name,
  dateOfBirth: String(row.date_of_birth).slice(0, 10),
  submittedAt: iso(row.submitted_at)!,
  reviewedAt: iso(row.reviewed_at),
  reviewedBy: row.reviewer,
  rejectionReason: row.rejection_reason,
});

/** The review queue: pending oldest first (first come, first reviewed), decided ones newest first. */
export async function listVerifications(actor: Actor, query: VerificationListQuery) {
  requireAdmin(actor);
  const db = await getDb();
  const order =
    query.status === 'pending' ? sql`iv.submitted_at ASC, iv.id ASC` : sql`iv.reviewed_at DESC NULLS LAST, iv.id DESC`;
  const rows = await queryRows<SummaryRow>(
    db,
    sql`SELECT ${SUMMARY_COLUMNS} FROM ${SUMMARY_FROM} WHERE iv.status = ${query.status}
        ORDER BY ${order} LIMIT ${query.limit + 1} OFFSET ${(query.page - 1) * query.limit}`,
  );
  const [counts] = await queryRows<Record<'pending' | 'approved' | 'rejected', number>>(
    db,
    sql`SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending, count(*) FILTER (WHERE status = 'approved')::int AS approved,
               count(*) FILTER (WHERE status = 'rejected')::int AS rejected FROM identity_verifications`,
  );
  return {
    verifications: rows.slice(0, query.limit).map(toSummary),
    counts: counts!,
    pagination: { page: query.page, limit: query.limit, hasMore: rows.length > query.limit },
  };
}

/** The admin-only, audited address of a private document. */
export const documentUrl = (id: string) => `/api/admin/documents/${id}`;

async function documentsById(db: Database, ids: (string | null)[]): Promise<Map<string, VerificationDocumentDto>> {
  const wanted = ids.filter((id): id is string => id !== null);
  const found = new Map<string, VerificationDocumentDto>();
  if (!wanted.length) return found;
  const rows = await queryRows<{ id: string; purpose: string; media_type: string; byte_size: number }>(
    db,
    sql`SELECT id, purpose, media_type, byte_size FROM private_documents WHERE id IN (${sql.join(
      wanted.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
  for (const row of rows)
    found.set(row.id, {
      _id: row.id,
      purpose: row.purpose,
      mediaType: row.media_type,
      byteSize: Number(row.byte_size),
      url: documentUrl(row.id),
    });
  return found;
}

/** One submission with its documents' metadata (the bytes only through viewDocument) and the member's other submissions. */
export async function getVerification(actor: Actor, id: string): Promise<VerificationDetailDto> {
  requireAdmin(actor);
  if (!UUID.test(id)) throw new ApiError(404, VERIFICATION_MESSAGES.notFound);
  const db = await getDb();
  const [row] = await queryRows<SummaryRow>(db, sql`SELECT ${SUMMARY_COLUMNS} FROM ${SUMMARY_FROM} WHERE iv.id = ${id}`);
  if (!row) throw new ApiError(404, VERIFICATION_MESSAGES.notFound);
  const documents = await documentsById(db, [row.id_document_id, row.selfie_document_id]);
  const history = await queryRows<SummaryRow>(
    db,
    sql`SELECT ${SUMMARY_COLUMNS} FROM ${SUMMARY_FROM} WHERE iv.user_id = ${row.user_id} AND iv.id <> ${row.id} ORDER BY iv.submitted_at DESC LIMIT 20`,
  );
  const summary = toSummary(row);
  return {
    ...summary,
    age: ageOn(summary.dateOfBirth, todayIso()),
    idDocument: row.id_document_id ? (documents.get(row.id_document_id) ?? null) : null,
    selfie: row.selfie_document_id ? (documents.get(row.selfie_document_id) ?? null) : null,
    history: history.map(toSummary),
  };
}

/**
 * Approves or rejects a submission under review. Only from pending (two
 * admins at once: one wins, the other is told). Approval and rejection are
 * audited and emailed to the member; a rejection also records a statement
 * of reasons and notifies the member with a link to it, so they can read
 * why and send new documents.
 */
export async function reviewVerification(
  actor: Actor,
  id: string,
  review: VerificationReview,
): Promise<{ message: string; verification: VerificationDetailDto }> {
  const admin = requireAdmin(actor);
  if (!UUID.test(id)) throw new ApiError(404, VERIFICATION_MESSAGES.notFound);
  const db = await getDb();
  const [row] = await db.select().from(identityVerifications).where(eq(identityVerifications.id, id));
  if (!row) throw new ApiError(404, VERIFICATION_MESSAGES.notFound);
  if (row.status !== 'pending') throw conflict(VERIFICATION_MESSAGES.alreadyReviewed);
  refuseOwnCase(admin, row.userId, 'verification');
  const [member] = await db.select({ username: users.username, email: users.email }).from(users).where(eq(users.id, row.userId));
  const who = member?.username ?? 'a deleted member';

  await db.transaction(async (tx) => {
    const decision =
      review.action === 'reject'
        ? await recordDecision(tx, {
            subjectUserId: row.userId,
            targetType: 'verification',
            targetId: row.id,
            targetLabel: 'Identity verification',
            action: 'verification_rejected',
            ground: 'standards-verification',
            explanation: review.reason,
            automated: false,
            source: 'moderation',
            decidedBy: admin.user.id,
          })
        : null;
    const updated = await tx
      .update(identityVerifications)
      .set({
        status: review.action === 'approve' ? 'approved' : 'rejected',
        reviewedAt: sql`now()`,
        reviewedBy: admin.user.id,
        rejectionReason: review.action === 'reject' ? review.reason : null,
        decisionId: decision?.id ?? null,
      })
      .where(and(eq(identityVerifications.id, row.id), eq(identityVerifications.status, 'pending')))
      .returning({ id: identityVerifications.id });
    if (updated.length === 0) throw conflict(VERIFICATION_MESSAGES.alreadyReviewed);
    await recordAdminAction(tx, admin, {
      action: review.action === 'approve' ? 'verification.approve' : 'verification.reject',
      targetType: 'verification',
      targetId: row.id,
      summary:
        review.action === 'approve'
          ? `Verified the identity of ${who}`
          : `Rejected the identity verification of ${who}: ${review.reason}`,
      details: { userId: row.userId, ...(review.action === 'reject' ? { reason: review.reason, decisionId: decision!.id } : {}) },
    });
    // A rejection restricts the member: a notification linking to its statement of reasons. An approval is told by email
    // and shows at /verify and on the upload page; the bell stays for what needs the member's attention.
    if (member && decision && review.action === 'reject') {
      await notify(tx, {
        recipientId: row.userId,
        senderId: admin.user.id,
        type: 'site_notice',
        link: decision.link,
        message: `Your identity verification was not approved. Reason: ${review.reason} You can send new documents.`,
      });
    }
  });
  if (member) await sendReviewEmail(member, review);
  return {
    message: review.action === 'approve' ? VERIFICATION_MESSAGES.approved : VERIFICATION_MESSAGES.rejected,
    verification: await getVerification(admin, row.id),
  };
}

/** Tells the member by email too; the decision stands whether or not the mail goes out. */
async function sendReviewEmail(member: { username: string; email: string }, review: VerificationReview): Promise<void> {
  const { siteName, siteUrl } = getConfig();
  const approved = review.action === 'approve';
  try {
    await sendMail(
      linkEmail({
        to: member.email,
        subject: approved
          ? `Your identity is verified on ${siteName}`
          : `Your identity verification on ${siteName} was not approved`,
        greeting: `Hi ${member.username},`,
        lines: approved
          ? [
              'We have checked your documents: your identity is verified. Your videos can now be approved and published after review.',
            ]
          : [
              `We could not verify your identity from the documents you sent. Reason: ${review.reason}`,
              'You can send new documents at any time.',
            ],
        action: approved ? 'Upload a video' : 'Send new documents',
        url: `${siteUrl}${approved ? '/upload' : VERIFICATION_PAGE}`,
        footer: 'You are getting this email because you asked us to verify your identity.',
      }),
    );
  } catch (error) {
    log.error({ err: error }, 'could not send a verification decision');
  }
}

// ---------- Documents ----------

const PURPOSE_LABEL: Record<string, string> = {
  verification_id: 'ID document',
  verification_selfie: 'selfie',
  performer_id: 'performer ID',
  performer_release: 'performer release',
};

/**
 * Any private document, for an admin only, with the view written to the
 * audit log before the bytes leave (no view without its record). Served so
 * that nothing in it can run or be cached: private, no-store, nosniff, a
 * sandboxing CSP, PDFs as an attachment. Anyone else, and any id that is not
 * a document, gets a 403/401 or the same 404.
 */
export async function viewDocument(actor: Actor, id: string): Promise<Response> {
  const admin = requireAdmin(actor);
  if (!UUID.test(id)) throw new ApiError(404, VERIFICATION_MESSAGES.documentNotFound);
  const db = await getDb();
  const [row] = await db
    .select({
      id: privateDocuments.id,
      ownerId: privateDocuments.ownerId,
      purpose: privateDocuments.purpose,
      mediaType: privateDocuments.mediaType,
    })
    .from(privateDocuments)
    .where(eq(privateDocuments.id, id));
  if (!row) throw new ApiError(404, VERIFICATION_MESSAGES.documentNotFound);
  const document = await readPrivateDocument(db, id);
  if (!document) throw new ApiError(404, VERIFICATION_MESSAGES.documentNotFound);
  const [owner] = await db.select({ username: users.username }).from(users).where(eq(users.id, row.ownerId));
  await recordAdminAction(db, admin, {
    action: 'document.view',
    targetType: 'document',
    targetId: row.id,
    summary: `Viewed the ${PURPOSE_LABEL[row.purpose] ?? row.purpose} of ${owner?.username ?? 'a deleted member'}`,
    details: { ownerId: row.ownerId, purpose: row.purpose, mediaType: document.mediaType },
  });
  const pdf = document.mediaType === 'application/pdf';
  const extension = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'application/pdf': 'pdf' }[
    document.mediaType
  ];
  return new Response(new Uint8Array(document.bytes), {
    status: 200,
    headers: {
      'Content-Type': document.mediaType,
      'Content-Length': String(document.bytes.byteLength),
      'Content-Disposition': `${pdf ? 'attachment' : 'inline'}; filename="${row.purpose}-${row.id}.${extension}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "sandbox; default-src 'none'",
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Resource-Policy': 'same-origin',
    },
  });
}
