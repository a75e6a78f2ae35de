import 'server-only';

import { sql } from 'drizzle-orm';

import { getConfig } from '@/lib/config/server';
import { getDb, queryRows, type Database } from '@/lib/db';

import { forgetOldRuns, scheduleNextRun, scheduleRecurring, type RecurringJob } from '../jobs/recurring';
import type { JobHandler } from '../jobs/worker';
import { logger } from '@/lib/server/log';

const log = logger('verification');

/**
 * What happens to identity documents when an account ends (decision 014).
 * The selfie, rejected submissions, and everything of a member who never
 * had a video published go VERIFICATION_RETENTION_DAYS later. The legal
 * name, date of birth and ID of an uploader who published videos are the
 * records 18 U.S.C. 2257 and 28 CFR 75.4 require a producer to keep: they
 * stay RECORDS_RETENTION_YEARS (default seven), as do the performer records
 * of deleted videos. A recurring sweep deletes whatever is past its delete_after.
 */

export const SWEEP_PRIVATE_DOCUMENTS: RecurringJob = { type: 'sweep-private-documents', everyMs: 60 * 60_000 };

/**
 * Sets delete_after on the member's documents and verification rows, in the
 * account deletion's transaction, before their videos are deleted (whether
 * any was ever published decides which rule applies). Performer IDs and
 * releases of a publishing uploader are 2257 records too and are kept as
 * long.
 */
export async function scheduleDocumentRetention(tx: Database, userId: string): Promise<void> {
  const { verificationRetentionDays: days, recordsRetentionYears: years } = getConfig();
  const soon = sql`now() + make_interval(days => ${days})`;
  const kept = sql`now() + make_interval(years => ${years})`;
  const [published] = await queryRows<{ yes: boolean }>(
    tx,
    sql`SELECT EXISTS (SELECT 1 FROM videos WHERE owner_id = ${userId} AND published_at IS NOT NULL) AS yes`,
  );
  if (!published?.yes) {
    await tx.execute(sql`UPDATE private_documents SET delete_after = ${soon} WHERE owner_id = ${userId}`);
    await tx.execute(sql`UPDATE identity_verifications SET delete_after = ${soon} WHERE user_id = ${userId}`);
    return;
  }
  // The approved submissions are the records; their selfies and every other submission are not.
  await tx.execute(
    sql`UPDATE identity_verifications SET delete_after = CASE WHEN status = 'approved' THEN ${kept} ELSE ${soon} END WHERE user_id = ${userId}`,
  );
  await tx.execute(
    sql`UPDATE private_documents SET delete_after = CASE
          WHEN purpose IN ('performer_id', 'performer_release') THEN ${kept}
          WHEN id IN (SELECT id_document_id FROM identity_verifications WHERE user_id = ${userId} AND status = 'approved' AND id_document_id IS NOT NULL) THEN ${kept}
          ELSE ${soon} END
        WHERE owner_id = ${userId}`,
  );
}

/**
 * Deletes documents and verification rows past their delete_after, and
 * clears the ids of removed documents on rows that stay (a kept record
 * whose selfie went). Returns how many of each went.
 */
export async function sweepPrivateDocuments(
  db: Database,
): Promise<{ documents: number; verifications: number; performers: number }> {
  return db.transaction(async (tx) => {
    // Performer records of deleted videos and accounts (lib/server/trust/performers.ts) go with their documents.
    const performers = await queryRows<{ id: string }>(
      tx,
      sql`DELETE FROM video_performers WHERE delete_after <= now() RETURNING id`,
    );
    const documents = await queryRows<{ id: string }>(
      tx,
      sql`DELETE FROM private_documents WHERE delete_after <= now() RETURNING id`,
    );
    const verifications = await queryRows<{ id: string }>(
      tx,
      sql`DELETE FROM identity_verifications WHERE delete_after <= now() RETURNING id`,
    );
    if (documents.length) {
      const gone = sql.join(
        documents.map((row) => sql`${row.id}`),
        sql`, `,
      );
      await tx.execute(sql`UPDATE identity_verifications SET id_document_id = NULL WHERE id_document_id IN (${gone})`);
      await tx.execute(sql`UPDATE identity_verifications SET selfie_document_id = NULL WHERE selfie_document_id IN (${gone})`);
    }
    return { documents: documents.length, verifications: verifications.length, performers: performers.length };
  });
}

/** Queues the sweep of the slot `at` falls in; every process calls it at start (see lib/server/jobs/recurring.ts). */
export const schedulePrivateDocumentSweep = (db: Database, at: number = Date.now()) =>
  scheduleRecurring(db, SWEEP_PRIVATE_DOCUMENTS, at);

export const sweepPrivateDocumentsJob: JobHandler = async () => {
  const db = await getDb();
  await scheduleNextRun(db, SWEEP_PRIVATE_DOCUMENTS);
  const { documents, verifications, performers } = await sweepPrivateDocuments(db);
  if (documents + verifications + performers > 0) {
    log.info(
      `deleted ${documents} private document(s), ${verifications} verification record(s) and ${performers} performer record(s) past their retention`,
    );
  }
  await forgetOldRuns(db, SWEEP_PRIVATE_DOCUMENTS);
};

export const VERIFICATION_JOB_HANDLERS: Record<string, JobHandler> = {
  [SWEEP_PRIVATE_DOCUMENTS.type]: sweepPrivateDocumentsJob,
};
