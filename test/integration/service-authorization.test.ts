/**
 * Services check their caller themselves: called directly (as a page, a
 * script, a job or a future route would, with no route wrapper in front),
 * every admin service refuses visitors (401), members and a demoted admin
 * (403 with the spec's message) and banned members (403), and every member
 * service refuses visitors and banned members. The route matrix
 * (authorization-matrix.test.ts) cannot show this alone, because the wrapper
 * checks first there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq, sql } from 'drizzle-orm';

import { installDatabase } from '@/lib/db';
import { users } from '@/lib/db/schema';
import { listAuditLog } from '@/lib/server/admin/audit';
import {
  banMember,
  getMemberDetail,
  listMembers,
  resendVerificationFor,
  setAdmin,
  unbanMember,
} from '@/lib/server/admin/members';
import { listPaymentEvents } from '@/lib/server/admin/payments';
import { decideReport } from '@/lib/server/reports/decide';
import { getAdminStats } from '@/lib/server/admin/stats';
import { changeEmail, changePassword, updatePreferences } from '@/lib/server/accounts';
import { changeProfilePhoto, deleteProfilePhoto } from '@/lib/server/accounts/profile-photo';
import { deleteAccount } from '@/lib/server/accounts/deletion';
import { deleteVideo, editVideo } from '@/lib/server/videos/manage';
import { VISITOR, type Actor } from '@/lib/server/auth/actor';
import { resolveToken } from '@/lib/server/auth/session';
import { blockMember, listBlocks } from '@/lib/server/community/blocks';
import { downloadDataExport, getDataExport, requestDataExport } from '@/lib/server/exports';
import { appealDecision, decideAppeal, listAppeals } from '@/lib/server/trust/appeals';
import { getDecision, listMyDecisions } from '@/lib/server/trust/statements';
import { deleteComment, editComment, postComment } from '@/lib/server/community/comments';
import { follow, listFollowingFeed, myFollowCounts } from '@/lib/server/community/follows';
import { like, listLikedVideos } from '@/lib/server/community/likes';
import { getProfile, suggestCreators, updateProfile } from '@/lib/server/community/profiles';
import { listReports } from '@/lib/server/reports/list';
import { ApiError } from '@/lib/server/errors';
import { listNotifications, markAllNotificationsRead } from '@/lib/server/notifications/feed';
import { resetLimiters } from '@/lib/server/rate-limit';
import { createDailyTask, deleteDailyTask, listDailyTasks, updateDailyTask } from '@/lib/server/tasks/admin';
import { completeTodaysTask, getTodaysTask } from '@/lib/server/tasks/daily-task';
import { listForModeration, moderateVideo, moderateVideos } from '@/lib/server/videos/moderation';
import { uploadVideo } from '@/lib/server/videos/upload';
import {
  getMyVerification,
  getVerification,
  listVerifications,
  reviewVerification,
  submitVerification,
  viewDocument,
} from '@/lib/server/verification';
import { resolveConsentWithdrawal } from '@/lib/server/trust/consent-withdrawals';
import { getVideoPerformers, saveVideoPerformers } from '@/lib/server/trust/performers';
import { startCheckout } from '@/lib/server/vip/checkout';
import { grantManualVip, revokeVip } from '@/lib/server/vip/entitlements';

import { ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { promoteToAdmin, verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-service-authz-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const ID = '3f1c1a8e-5b7d-4c1e-9a3b-2d4e6f8a0b1c';

/** The status a call is refused with, or 'allowed'. */
async function outcome(work: () => Promise<unknown>): Promise<number | 'allowed'> {
  try {
    await work();
    return 'allowed';
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
}

describe.each(ENGINES)('services check their caller on %s', (engine) => {
  let database: TestDatabase;
  const actors = {} as Record<'visitor' | 'member' | 'demoted' | 'banned', Actor>;
  let video = '';

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    const db = database.db;
    const member = await verifiedMemberToken(db, 'svcmember');
    await verifiedMemberToken(db, 'svcdemoted');
    await promoteToAdmin(db, await userId(db, 'svcdemoted'));
    const { startSession } = await import('@/lib/server/auth/session');
    const [demotedUser] = await db.select().from(users).where(eq(users.username, 'svcdemoted'));
    const demoted = (await startSession(demotedUser!, undefined, { secondFactor: true })).token;
    await db.update(users).set({ isAdmin: false }).where(eq(users.username, 'svcdemoted'));
    const banned = await verifiedMemberToken(db, 'svcbanned');
    await db
      .update(users)
      .set({ bannedAt: new Date(), tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.username, 'svcbanned'));
    actors.visitor = VISITOR;
    actors.member = await resolveToken(member, 'bearer', false);
    actors.demoted = await resolveToken(demoted, 'bearer', false);
    actors.banned = await resolveToken(banned, 'bearer', false);
    expect(actors.member.kind).toBe('member');
    expect(actors.demoted.kind).toBe('member');
    expect(actors.banned).toEqual({ kind: 'visitor', banned: true });
    video = (await insertVideo(db, await userId(db, 'svcmember'))).streamVideoId;
  }, 60_000);
  afterAll(() => database.destroy());

  const ADMIN_SERVICES: [string, (actor: Actor) => Promise<unknown>][] = [
    ['listMembers', (a) => listMembers(a, { q: '', filter: 'all', page: 1, limit: 20 })],
    ['getMemberDetail', (a) => getMemberDetail(a, ID)],
    ['banMember', (a) => banMember(a, ID, 'Spam')],
    ['unbanMember', (a) => unbanMember(a, ID, undefined)],
    ['setAdmin', (a) => setAdmin(a, ID, true)],
    ['resendVerificationFor', (a) => resendVerificationFor(a, ID)],
    ['listAuditLog', (a) => listAuditLog(a, { page: 1, limit: 20 })],
    ['listPaymentEvents', (a) => listPaymentEvents(a, { page: 1, limit: 20 })],
    ['decideReport', (a) => decideReport(a, ID, { action: 'dismiss', note: '' })],
    ['getAdminStats', (a) => getAdminStats(a, 14)],
    ['listReports', (a) => listReports(a, 'open', { page: 1, limit: 20 })],
    ['listForModeration', (a) => listForModeration(a, 'pending', { page: 1, limit: 20 })],
    ['moderateVideo', (a) => moderateVideo(a, video, { action: 'approve' })],
    ['moderateVideos', (a) => moderateVideos(a, [video], { action: 'approve' })],
    ['listDailyTasks', (a) => listDailyTasks(a)],
    ['createDailyTask', (a) => createDailyTask(a, { description: 'x', scheduledFor: null })],
    ['updateDailyTask', (a) => updateDailyTask(a, ID, { description: 'y' })],
    ['deleteDailyTask', (a) => deleteDailyTask(a, ID)],
    ['grantManualVip', (a) => grantManualVip(a, ID, { days: 1 })],
    ['revokeVip', (a) => revokeVip(a, ID, {})],
    ['resolveConsentWithdrawal', (a) => resolveConsentWithdrawal(a, ID, { action: 'dismiss', note: '' })],
    ['listAppeals', (a) => listAppeals(a, { status: 'open', page: 1, limit: 20 })],
    ['decideAppeal', (a) => decideAppeal(a, ID, { outcome: 'uphold', note: 'x' })],
    ['listVerifications', (a) => listVerifications(a, { status: 'pending', page: 1, limit: 20 })],
    ['getVerification', (a) => getVerification(a, ID)],
    ['reviewVerification', (a) => reviewVerification(a, ID, { action: 'approve' })],
    ['viewDocument', (a) => viewDocument(a, ID)],
  ];

  it.each(ADMIN_SERVICES)('%s refuses everyone but admins', async (_name, service) => {
    expect(await outcome(() => service(actors.visitor))).toBe(401);
    expect(await outcome(() => service(actors.banned))).toBe(403);
    expect(await outcome(() => service(actors.member))).toBe(403);
    expect(await outcome(() => service(actors.demoted))).toBe(403);
  });

  const MEMBER_SERVICES: [string, (actor: Actor) => Promise<unknown>][] = [
    ['postComment', (a) => postComment(a, video, { body: 'Hi' })],
    ['editComment', (a) => editComment(a, ID, { body: 'Hi' })],
    ['deleteComment', (a) => deleteComment(a, ID)],
    ['like', (a) => like(a, video)],
    ['listLikedVideos', (a) => listLikedVideos(a, { limit: 12, page: 1 })],
    ['follow', (a) => follow(a, 'svcmember')],
    ['listFollowingFeed', (a) => listFollowingFeed(a, { limit: 12, page: 1 })],
    ['myFollowCounts', (a) => myFollowCounts(a)],
    ['blockMember', (a) => blockMember(a, 'svcmember')],
    ['listBlocks', (a) => listBlocks(a)],
    ['getProfile', (a) => getProfile(a, 'svcmember')],
    ['suggestCreators', (a) => suggestCreators(a)],
    ['updateProfile', (a) => updateProfile(a, { bio: 'x' })],
    ['listNotifications', (a) => listNotifications(a, { limit: 20 })],
    ['markAllNotificationsRead', (a) => markAllNotificationsRead(a)],
    ['updatePreferences', (a) => updatePreferences(a, { autoPlayVideos: true })],
    ['changeEmail', (a) => changeEmail(a, { newEmail: 'x@example.org', confirmNewEmail: 'x@example.org', currentPassword: 'x' })],
    [
      'changePassword',
      (a) => changePassword(a, { currentPassword: 'x', newPassword: 'abcdefgh1', confirmNewPassword: 'abcdefgh1' }),
    ],
    ['changeProfilePhoto', (a) => changeProfilePhoto(a, new File(['not an image'], 'me.png', { type: 'image/png' }))],
    ['deleteProfilePhoto', (a) => deleteProfilePhoto(a)],
    ['getTodaysTask', (a) => getTodaysTask(a)],
    ['completeTodaysTask', (a) => completeTodaysTask(a)],
    ['startCheckout', (a) => startCheckout(a, { plan: 'monthly' })],
    ['uploadVideo', (a) => uploadVideo(a, new Request(`${ORIGIN}/api/videos/upload`, { method: 'POST' }))],
    ['deleteAccount', (a) => deleteAccount(a, { currentPassword: 'x', username: 'x' })],
    ['editVideo', (a) => editVideo(a, video, { title: 'x' })],
    ['deleteVideo', (a) => deleteVideo(a, video)],
    ['getDataExport', (a) => getDataExport(a)],
    ['requestDataExport', (a) => requestDataExport(a)],
    ['downloadDataExport', (a) => downloadDataExport(a, ID)],
    ['getVideoPerformers', (a) => getVideoPerformers(a, video)],
    ['saveVideoPerformers', (a) => saveVideoPerformers(a, video, { fields: {}, files: {} })],
    // Without the emailed link, a statement of reasons is for signed-in members only.
    ['listMyDecisions', (a) => listMyDecisions(a, { page: 1, limit: 20 })],
    ['getDecision', (a) => getDecision(a, ID)],
    ['appealDecision', (a) => appealDecision(a, ID, { statement: 'x' })],
    ['getMyVerification', (a) => getMyVerification(a)],
    ['submitVerification', (a) => submitVerification(a, { fields: {}, files: {} })],
  ];

  it.each(MEMBER_SERVICES)('%s refuses visitors and banned members', async (_name, service) => {
    expect(await outcome(() => service(actors.visitor))).toBe(401);
    expect(await outcome(() => service(actors.banned))).toBe(403);
  });
});
