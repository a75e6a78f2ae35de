import 'server-only';

import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';

import { and, eq, lte, or, sql } from 'drizzle-orm';

import type { DataExportDto } from '@/lib/api-types';
import { ACCOUNT_PATHS } from '@/lib/account-paths';
import { getConfig } from '@/lib/config/server';
import { getDb, type Database } from '@/lib/db';
import { dataExports, users, type DataExport, type User } from '@/lib/db/schema';
import { wakeWorkers } from '@/lib/events';
import { DATA_EXPORT_DAYS, DATA_EXPORT_MESSAGES, DATA_EXPORT_RENEW_HOURS, exportDateText } from '@/lib/validation/exports';

import { requireMember, type Actor } from '../auth/actor';
import { exportPrefix } from '../deletion/purge';
import { ApiError, conflict } from '../errors';
import { consume, giveBack, tooOften } from '../rate-limit';
import { forgetOldRuns, scheduleNextRun, scheduleRecurring, type RecurringJob } from '../jobs/recurring';
import { enqueue } from '../jobs/queue';
import type { JobHandler } from '../jobs/worker';
import { linkEmail, sendMail } from '../mail';
import { getMediaStorage } from '../storage';

import { collectMemberData } from './collect';
import { README_TEXT } from './readme';
import { writeZip } from './zip';
import { logger } from '@/lib/server/log';

const log = logger('exports');

/**
 * "Download my data" (issue 11): a member asks, the build-data-export job
 * writes a ZIP of everything we hold about them (lib/server/exports/collect.ts)
 * plus their original uploads into media storage under exports/{userId}/,
 * emails them, and the file can be downloaded by that member only, for
 * DATA_EXPORT_DAYS days; then sweep-data-exports deletes it. One export per
 * member at a time (data_exports.user_id is unique).
 */

export const BUILD_DATA_EXPORT_JOB = 'build-data-export';
export const SWEEP_DATA_EXPORTS: RecurringJob = { type: 'sweep-data-exports', everyMs: 60 * 60_000 };
/** Attempts before the export is marked failed (the member can then ask again). */
const BUILD_ATTEMPTS = 3;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every export of a member lives under exportPrefix(userId), which account deletion removes whole. */
export const exportFileKey = (userId: string, exportId: string) => `${exportPrefix(userId)}/${exportId}.zip`;
/** The login-only download link (a route outside /api, so a visitor who opens it from the email is sent to log in first). */
export const exportDownloadPath = (exportId: string) => `/data-export/${exportId}`;

const isLive = (row: DataExport, now = Date.now()) =>
  row.status !== 'ready' || (row.expiresAt !== null && row.expiresAt.getTime() > now);
/** When a fresh export may replace a ready one (null unless ready). */
const renewableAt = (row: DataExport) =>
  row.status === 'ready' && row.readyAt ? new Date(row.readyAt.getTime() + DATA_EXPORT_RENEW_HOURS * 3_600_000) : null;

function toDto(row: DataExport): DataExportDto {
  return {
    _id: row.id,
    status: row.status,
    requestedAt: row.requestedAt.toISOString(),
    readyAt: row.readyAt?.toISOString() ?? null,
    expiresAt: row.status === 'ready' ? (row.expiresAt?.toISOString() ?? null) : null,
    renewableAt: renewableAt(row)?.toISOString() ?? null,
    canRenew: (renewableAt(row)?.getTime() ?? Infinity) <= Date.now(),
    sizeBytes: row.status === 'ready' ? row.sizeBytes : null,
    downloadUrl: row.status === 'ready' ? exportDownloadPath(row.id) : null,
    error: row.status === 'failed' ? (row.error ?? DATA_EXPORT_MESSAGES.failed) : null,
  };
}

/** The caller's export: being prepared, ready (until it expires) or failed; null when there is none. */
export async function getDataExport(actor: Actor): Promise<DataExportDto | null> {
  const member = requireMember(actor);
  const db = await getDb();
  const [row] = await db.select().from(dataExports).where(eq(dataExports.userId, member.user.id));
  return row && isLive(row) ? toDto(row) : null;
}

/**
 * Asks for an export. A pending one, or a ready one younger than
 * DATA_EXPORT_RENEW_HOURS, is a 409 with a message saying so. A failed,
 * expired or older ready one is replaced (its file deleted first). The row and its job are written in one transaction;
 * the unique user_id makes two simultaneous requests one export.
 */
export async function requestDataExport(actor: Actor): Promise<{ message: string; export: DataExportDto }> {
  const member = requireMember(actor);
  const db = await getDb();
  const userId = member.user.id;
  const [existing] = await db.select().from(dataExports).where(eq(dataExports.userId, userId));
  if (existing?.status === 'pending') throw conflict(DATA_EXPORT_MESSAGES.alreadyPending);
  const renewable = existing && renewableAt(existing);
  if (renewable && isLive(existing) && renewable.getTime() > Date.now())
    throw conflict(DATA_EXPORT_MESSAGES.alreadyReady.replace('{date}', exportDateText(renewable)));
  // Counted once it would build one: asking while one is pending or ready costs nothing.
  await consume('dataExportsPerMember', userId, tooOften('asked for a data export'));
  if (existing) await getMediaStorage().deletePrefix(existing.fileKey ?? exportFileKey(userId, existing.id));
  const created = await db.transaction(async (tx) => {
    if (existing)
      await tx.delete(dataExports).where(and(eq(dataExports.id, existing.id), eq(dataExports.status, existing.status)));
    const [row] = await tx.insert(dataExports).values({ userId }).onConflictDoNothing({ target: dataExports.userId }).returning();
    if (!row) return null;
    await enqueue(
      tx,
      BUILD_DATA_EXPORT_JOB,
      { exportId: row.id },
      { dedupeKey: `${BUILD_DATA_EXPORT_JOB}:${row.id}`, maxAttempts: BUILD_ATTEMPTS },
    );
    return row;
  });
  // Another request won the race: it is being prepared, and this one built nothing.
  if (!created) {
    await giveBack('dataExportsPerMember', userId);
    throw conflict(DATA_EXPORT_MESSAGES.alreadyPending);
  }
  wakeWorkers();
  return { message: DATA_EXPORT_MESSAGES.requested, export: toDto(created) };
}

/**
 * The download: the caller's own ready, unexpired export, streamed from
 * media storage as an attachment. Anything else (someone else's export,
 * an admin asking, an expired or unknown id, a malformed one) is the same
 * 404, so ids reveal nothing.
 */
export async function downloadDataExport(actor: Actor, exportId: string): Promise<Response> {
  const member = requireMember(actor);
  const notFound = () => new ApiError(404, DATA_EXPORT_MESSAGES.notFound);
  if (!UUID.test(exportId)) throw notFound();
  const db = await getDb();
  const [row] = await db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.id, exportId), eq(dataExports.userId, member.user.id), eq(dataExports.status, 'ready')));
  if (!row?.fileKey || !isLive(row)) throw notFound();
  const storage = getMediaStorage();
  const stored = await storage.stat(row.fileKey);
  if (!stored) throw notFound();
  const body = await storage.read(row.fileKey);
  const day = (row.readyAt ?? row.requestedAt).toISOString().slice(0, 10);
  // Usernames are letters, digits and _ . - only, so the name needs no escaping.
  const filename = `chrysalis-data-${member.user.username.replace(/[^A-Za-z0-9_.-]/g, '_')}-${day}.zip`;
  return new Response(Readable.toWeb(body) as ReadableStream, {
    status: 200,
    headers: {
      'Content-Type': 'application/zip',
      'Content-Length': String(stored.size),
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
  });
}

// ---------- The job ----------

function workFile(exportId: string): string {
  return path.join(getConfig().dataDir, 'work', 'exports', `${exportId}.zip`);
}

async function notifyReady(db: Database, row: DataExport, user: User): Promise<void> {
  const { siteUrl, siteName } = getConfig();
  await sendMail(
    linkEmail({
      to: user.email,
      subject: `Your ${siteName} data is ready to download`,
      greeting: `Hello ${user.username},`,
      lines: [
        `The copy of your ${siteName} data you asked for is ready: your profile, videos (with the files you uploaded), comments, likes, follows, notifications, daily tasks, payments and blocks.`,
        `The link works only when you are logged in, and until ${exportDateText(row.expiresAt!)}. After that the file is deleted; you can ask for a new one in Settings, under Your data: ${siteUrl}${ACCOUNT_PATHS.data}`,
      ],
      action: 'Download your data',
      url: `${siteUrl}${exportDownloadPath(row.id)}`,
      footer: `You are getting this email because someone asked for this export in your account settings. If that was not you, change your password and log out other devices in Settings, under Security: ${siteUrl}${ACCOUNT_PATHS.security}`,
    }),
  );
  await db
    .update(dataExports)
    .set({ notifiedAt: sql`now()` })
    .where(eq(dataExports.id, row.id));
}

/**
 * build-data-export: collects the member's data, streams the ZIP into a
 * work file (replacing any half-written one from a crashed run), puts it
 * into media storage whole, marks the export ready for DATA_EXPORT_DAYS and
 * emails the member. Idempotent: a rerun after a crash rebuilds and
 * overwrites the same key; one after the row became ready only sends a
 * missing email; a gone or replaced row does nothing (and takes back a file
 * it just stored). After the last attempt the member sees a fixed message
 * and can try again; the cause is in the job's last_error.
 */
export const buildDataExportJob: JobHandler = async (job, { signal }) => {
  const exportId = String(job.payload.exportId);
  const db = await getDb();
  const [row] = await db.select().from(dataExports).where(eq(dataExports.id, exportId));
  if (!row || row.status === 'failed') return;
  const [user] = await db.select().from(users).where(eq(users.id, row.userId));
  if (!user) return;
  if (row.status === 'ready') {
    if (!row.notifiedAt) await notifyReady(db, row, user);
    return;
  }
  const storage = getMediaStorage();
  const key = exportFileKey(user.id, row.id);
  const work = workFile(row.id);
  try {
    await mkdir(path.dirname(work), { recursive: true });
    await rm(work, { force: true });
    const sizes = new Map<string, number>();
    const data = await collectMemberData(db, user, async (original) => {
      const found = await storage.stat(original);
      if (found) sizes.set(original, found.size);
      return found !== null;
    });
    const buffers = [
      { path: 'README.txt', data: Buffer.from(README_TEXT(getConfig().siteName, user.username, DATA_EXPORT_DAYS), 'utf8') },
      ...Object.entries(data.json).map(([name, value]) => ({
        path: name,
        data: Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8'),
      })),
    ];
    const stored = data.originals.map((original) => ({ ...original, size: sizes.get(original.key)! }));
    await writeZip(work, { buffers, stored }, storage, signal);
    signal.throwIfAborted();
    const { size } = await stat(work);
    await storage.putFile(key, work, 'application/zip');
    const [ready] = await db
      .update(dataExports)
      .set({
        status: 'ready',
        fileKey: key,
        sizeBytes: size,
        error: null,
        readyAt: sql`now()`,
        expiresAt: sql`now() + ${`${DATA_EXPORT_DAYS} days`}::interval`,
      })
      .where(and(eq(dataExports.id, row.id), eq(dataExports.status, 'pending')))
      .returning();
    // The account or this export went away while we worked: take back the file.
    if (!ready) return void (await storage.deletePrefix(key));
    await notifyReady(db, ready, user);
  } catch (error) {
    // Lease lost: the worker holding the job now decides.
    if (signal.aborted) throw error;
    if (job.attempts >= job.maxAttempts) {
      await db
        .update(dataExports)
        .set({ status: 'failed', error: DATA_EXPORT_MESSAGES.failed })
        .where(and(eq(dataExports.id, row.id), eq(dataExports.status, 'pending')));
    }
    throw error;
  } finally {
    await rm(work, { force: true });
  }
};

// ---------- Expiry ----------

/**
 * Deletes expired exports (file first, then row, so a crash in between only
 * repeats a delete), failed ones after DATA_EXPORT_DAYS, and marks as failed
 * any still pending after a day (a job lost for good), so the member can
 * ask again. Returns how many were removed.
 */
export async function sweepDataExports(db: Database): Promise<{ removed: number }> {
  await db
    .update(dataExports)
    .set({ status: 'failed', error: DATA_EXPORT_MESSAGES.failed })
    .where(and(eq(dataExports.status, 'pending'), lte(dataExports.requestedAt, sql`now() - interval '1 day'`)));
  const gone = or(
    and(eq(dataExports.status, 'ready'), lte(dataExports.expiresAt, sql`now()`)),
    and(eq(dataExports.status, 'failed'), lte(dataExports.requestedAt, sql`now() - ${`${DATA_EXPORT_DAYS} days`}::interval`)),
  );
  const rows = await db.select().from(dataExports).where(gone);
  const storage = getMediaStorage();
  let removed = 0;
  for (const row of rows) {
    await storage.deletePrefix(row.fileKey ?? exportFileKey(row.userId, row.id));
    const deleted = await db
      .delete(dataExports)
      .where(and(eq(dataExports.id, row.id), gone))
      .returning({ id: dataExports.id });
    removed += deleted.length;
  }
  return { removed };
}

/** Queues the sweep of the slot `at` falls in; every process calls it at start (see lib/server/jobs/recurring.ts). */
export const scheduleDataExportSweep = (db: Database, at: number = Date.now()) => scheduleRecurring(db, SWEEP_DATA_EXPORTS, at);

export const sweepDataExportsJob: JobHandler = async () => {
  const db = await getDb();
  await scheduleNextRun(db, SWEEP_DATA_EXPORTS);
  const { removed } = await sweepDataExports(db);
  if (removed > 0) log.info(`removed ${removed} expired data export${removed === 1 ? '' : 's'}`);
  await forgetOldRuns(db, SWEEP_DATA_EXPORTS);
};

export const EXPORT_JOB_HANDLERS: Record<string, JobHandler> = {
  [BUILD_DATA_EXPORT_JOB]: buildDataExportJob,
  [SWEEP_DATA_EXPORTS.type]: sweepDataExportsJob,
};
