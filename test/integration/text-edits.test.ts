/**
 * Decision 009 as amended by issue 35: an owner's new title, description and tags for an approved video wait for a
 * moderator while the approved text stays public; the category goes live at once; admins decide on the text they
 * read (editId); the owner is told; saving the approved text withdraws; deleting the video takes the edit with it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';

import { GET as listEdits } from '@/app/api/admin/video-text-edits/route';
import { PATCH as decideRoute } from '@/app/api/admin/videos/[streamVideoId]/text-edit/route';
import { DELETE as deleteVideoRoute, GET as videoById, PATCH as editVideoRoute } from '@/app/api/videos/[streamVideoId]/route';
import { GET as recent } from '@/app/api/videos/route';
import type { OwnVideoDto } from '@/lib/api-types';
import { installDatabase } from '@/lib/db';
import { adminAuditLog, notifications, videos, videoTextEdits, type Video } from '@/lib/db/schema';
import { resetLimiters } from '@/lib/server/rate-limit';
import { setMediaStorage } from '@/lib/server/storage';
import { LocalMediaStorage } from '@/lib/server/storage/local';
import { EDIT_WITHDRAWN_MESSAGE, WAITING_FOR_REVIEW_MESSAGE } from '@/lib/server/videos/manage';
import { TEXT_EDIT_GONE_MESSAGE, TEXT_EDIT_REPLACED_MESSAGE } from '@/lib/server/videos/text-edits';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { promoteToAdmin, verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-text-edits-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const HOSTILE = 'New title </script ><img src=x onerror=alert(1)>';

describe.each(ENGINES)('text edits of approved videos on %s', (engine) => {
  let database: TestDatabase;
  let ownerToken: string;
  let otherToken: string;
  let adminToken: string;
  let owner: string;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    setMediaStorage(new LocalMediaStorage(dataDir));
    ownerToken = await verifiedMemberToken(database.db, 'maker');
    otherToken = await verifiedMemberToken(database.db, 'nosy');
    adminToken = await verifiedMemberToken(database.db, 'mod');
    await promoteToAdmin(database.db, await userId(database.db, 'mod'));
    owner = await userId(database.db, 'maker');
  });
  afterAll(() => database.destroy());
  beforeEach(() => resetLimiters());

  const edit = (token: string, v: Pick<Video, 'streamVideoId'>, json: unknown) =>
    call(editVideoRoute, `/api/videos/${v.streamVideoId}`, {
      method: 'PATCH',
      bearer: token,
      params: { streamVideoId: v.streamVideoId },
      json,
    });
  const read = (token: string | undefined, v: Pick<Video, 'streamVideoId'>) =>
    call(videoById, `/api/videos/${v.streamVideoId}`, {
      bearer: token,
      params: { streamVideoId: v.streamVideoId },
    });
  const decide = (token: string, v: Pick<Video, 'streamVideoId'>, json: unknown) =>
    call(decideRoute, `/api/admin/videos/${v.streamVideoId}/text-edit`, {
      method: 'PATCH',
      bearer: token,
      params: { streamVideoId: v.streamVideoId },
      json,
    });
  const queue = async () =>
    (await call(listEdits, '/api/admin/video-text-edits', { bearer: adminToken })).body as {
      edits: {
        streamVideoId: string;
        editId: string;
        title: string;
        changes: { field: string; before: unknown; after: unknown }[];
      }[];
      total: number;
    };
  const videoOf = (answer: { body: Record<string, unknown> }) => answer.body.video as OwnVideoDto;
  const row = async (v: Video) => (await database.db.select().from(videos).where(eq(videos.id, v.id)))[0]!;
  const waitingOf = async (v: Video) =>
    (await database.db.select().from(videoTextEdits).where(eq(videoTextEdits.videoId, v.id)))[0];
  const told = async (text: RegExp) =>
    (await database.db.select().from(notifications).where(eq(notifications.recipientId, owner))).filter((n) =>
      text.test(n.message ?? ''),
    );

  it('keeps the approved text public while the new text waits; the category goes live at once', async () => {
    const video = await insertVideo(database.db, owner, { title: 'Typo titel', description: 'Old words', tags: ['old'] });
    const saved = await edit(ownerToken, video, { title: HOSTILE, tags: 'Fresh, #new', category: 'Beta' });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe(WAITING_FOR_REVIEW_MESSAGE);
    expect(saved.body.video).toMatchObject({
      title: 'Typo titel',
      category: 'Beta',
      moderationStatus: 'approved',
      pendingEdit: { title: HOSTILE, description: 'Old words', tags: ['fresh', 'new'] },
    });

    // Still public with its approved text, on its page and in the lists; only the category moved.
    expect(await row(video)).toMatchObject({ title: 'Typo titel', category: 'Beta', moderationStatus: 'approved' });
    const visitor = await read(undefined, video);
    expect(visitor.status).toBe(200);
    expect(visitor.body.video).toMatchObject({ title: 'Typo titel' });
    expect(visitor.body.video).not.toHaveProperty('pendingEdit');
    const stranger = await read(otherToken, video);
    expect(stranger.body.video).not.toHaveProperty('pendingEdit');
    const listed = await call(recent, '/api/videos?limit=50');
    expect(JSON.stringify(listed.body)).toContain('Typo titel');
    expect(JSON.stringify(listed.body)).not.toContain('</script >');
    expect(videoOf(await read(ownerToken, video)).pendingEdit?.title).toBe(HOSTILE);

    // The owner's next save goes on from the waiting text (a partial edit keeps its title) and replaces it.
    const first = (await waitingOf(video))!;
    const again = await edit(ownerToken, video, { description: 'Better words' });
    expect(videoOf(again).pendingEdit).toMatchObject({ title: HOSTILE, description: 'Better words' });
    const second = (await waitingOf(video))!;
    expect(second.editId).not.toBe(first.editId);

    // The admin decides on what they read: the replaced proposal is refused.
    const listedEdit = (await queue()).edits.find((item) => item.streamVideoId === video.streamVideoId)!;
    expect(listedEdit).toMatchObject({ editId: second.editId, title: 'Typo titel' });
    expect(listedEdit.changes.map((change) => change.field)).toEqual(['title', 'description', 'tags']);
    const stale = await decide(adminToken, video, { action: 'approve', editId: first.editId });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(TEXT_EDIT_REPLACED_MESSAGE);
    expect((await row(video)).title).toBe('Typo titel');

    const approved = await decide(adminToken, video, { action: 'approve', editId: second.editId });
    expect(approved.status).toBe(200);
    expect(await row(video)).toMatchObject({
      title: HOSTILE,
      description: 'Better words',
      tags: ['fresh', 'new'],
      moderationStatus: 'approved',
    });
    expect(await waitingOf(video)).toBeUndefined();
    expect(await told(/Your changes to "Typo titel" have been approved/)).toHaveLength(1);
    const twice = await decide(adminToken, video, { action: 'approve', editId: second.editId });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe(TEXT_EDIT_GONE_MESSAGE);

    const audit = await database.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, video.streamVideoId));
    expect(audit.map((entry) => entry.action).sort()).toEqual(['video.edit', 'video.edit', 'video.edit_approve']);
    expect(audit.find((entry) => entry.action === 'video.edit_approve')!.details).toMatchObject({
      editId: second.editId,
      changes: expect.arrayContaining([{ field: 'title', before: 'Typo titel', after: HOSTILE }]),
    });
  });

  it('a rejection keeps the approved text and tells the owner why; saving the approved text withdraws', async () => {
    const video = await insertVideo(database.db, owner, { title: 'Calm title' });
    await edit(ownerToken, video, { title: 'Shouting title' });
    const { editId } = (await waitingOf(video))!;
    expect((await decide(adminToken, video, { action: 'reject', editId, reason: '  ' })).body.message).toBe(
      'Give a reason for the rejection',
    );
    expect((await decide(adminToken, video, { action: 'maybe', editId })).status).toBe(400);
    expect((await decide(adminToken, video, { action: 'approve', editId: 'not-a-uuid' })).status).toBe(400);
    expect((await decide(otherToken, video, { action: 'approve', editId })).status).toBe(403);
    const rejected = await decide(adminToken, video, { action: 'reject', editId, reason: 'Misleading </script > title' });
    expect(rejected.status).toBe(200);
    expect((await row(video)).title).toBe('Calm title');
    expect(await waitingOf(video)).toBeUndefined();
    expect(await told(/Your changes to "Calm title" were not approved.*Reason: Misleading <\/script > title/)).toHaveLength(1);

    // Withdrawn: the owner saves the approved text again.
    await edit(ownerToken, video, { title: 'Another try' });
    expect(await waitingOf(video)).toBeDefined();
    const back = await edit(ownerToken, video, { title: 'Calm title' });
    expect(back.body.message).toBe(EDIT_WITHDRAWN_MESSAGE);
    expect(videoOf(back).pendingEdit).toBeNull();
    expect(await waitingOf(video)).toBeUndefined();
    expect((await queue()).edits.some((item) => item.streamVideoId === video.streamVideoId)).toBe(false);
  });

  it('applies text directly where nothing is public yet and for admins; a deleted video takes its edit along', async () => {
    const pending = await insertVideo(database.db, owner, { title: 'Draft', moderationStatus: 'pending' });
    expect((await edit(ownerToken, pending, { title: 'Draft two' })).status).toBe(200);
    expect((await row(pending)).title).toBe('Draft two');
    expect(await waitingOf(pending)).toBeUndefined();

    const video = await insertVideo(database.db, owner, { title: 'Live title' });
    await edit(ownerToken, video, { title: 'Owner wants this' });
    // An admin's edit is live at once and leaves the owner's proposal for review.
    expect((await edit(adminToken, video, { title: 'Admin fixed this' })).status).toBe(200);
    expect((await row(video)).title).toBe('Admin fixed this');
    expect((await waitingOf(video))!.title).toBe('Owner wants this');

    const before = (await queue()).total;
    const removed = await call(deleteVideoRoute, `/api/videos/${video.streamVideoId}`, {
      method: 'DELETE',
      bearer: ownerToken,
      params: { streamVideoId: video.streamVideoId },
    });
    expect(removed.status).toBe(200);
    expect(await waitingOf(video)).toBeUndefined();
    expect((await queue()).total).toBe(before - 1);
  });
});
