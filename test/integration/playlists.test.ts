/**
 * Playlists (issue 35, part 6): create with limits and hostile text, add,
 * remove and reorder (concurrent edits included), visibility and who may see
 * or change one (someone else's id, private 404, unlisted by link), videos
 * that stop being public or are deleted, account deletion, the data export.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq, sql } from 'drizzle-orm';

import { DELETE as deletePlaylistRoute, GET as getRoute, PATCH as patchRoute } from '@/app/api/playlists/[id]/route';
import { PUT as orderRoute } from '@/app/api/playlists/[id]/order/route';
import { DELETE as removeRoute, PUT as addRoute } from '@/app/api/playlists/[id]/videos/[streamVideoId]/route';
import { GET as listRoute, POST as createRoute } from '@/app/api/playlists/route';
import { DELETE as deleteAccountRoute } from '@/app/api/users/settings/account/route';
import type { PlaylistDto, PlaylistListDto, PlaylistSummaryDto } from '@/lib/api-types';
import { installDatabase, queryRows } from '@/lib/db';
import { playlists, users, videos } from '@/lib/db/schema';
import { PLAYLIST_MESSAGES, PLAYLIST_VIDEOS_MAX, PLAYLISTS_MAX } from '@/lib/playlists';
import { collectMemberData } from '@/lib/server/exports/collect';
import { listPublicPlaylists, loadVisitorPlaylist } from '@/lib/server/playlists/public';
import { resetLimiters } from '@/lib/server/rate-limit';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-playlists-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe.each(ENGINES)('playlists on %s', (engine) => {
  let database: TestDatabase;
  let creator: string;
  let ownerToken: string;
  let otherToken: string;
  let owner: string;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    await verifiedMemberToken(database.db, 'pl_creator');
    ownerToken = await verifiedMemberToken(database.db, 'pl_owner');
    otherToken = await verifiedMemberToken(database.db, 'pl_other');
    creator = await userId(database.db, 'pl_creator');
    owner = await userId(database.db, 'pl_owner');
  });
  afterAll(() => database.destroy());
  beforeEach(async () => {
    await database.db.delete(playlists);
    await database.db.delete(videos);
  });

  const create = (json: unknown, bearer: string | undefined = ownerToken) =>
    call(createRoute, '/api/playlists', { method: 'POST', bearer, json });
  const newPlaylist = async (json: Record<string, unknown> = {}) => {
    const response = await create({ title: 'Evening mix', ...json });
    expect(response.status).toBe(201);
    return (response.body as unknown as PlaylistSummaryDto).id;
  };
  const get = (id: string, bearer?: string) => call(getRoute, `/api/playlists/${id}`, { bearer, params: { id } });
  const patch = (id: string, json: unknown, bearer: string | undefined = ownerToken) =>
    call(patchRoute, `/api/playlists/${id}`, { method: 'PATCH', bearer, json, params: { id } });
  const add = (id: string, streamVideoId: string, bearer: string | undefined = ownerToken) =>
    call(addRoute, `/api/playlists/${id}/videos/${streamVideoId}`, { method: 'PUT', bearer, params: { id, streamVideoId } });
  const remove = (id: string, streamVideoId: string, bearer: string | undefined = ownerToken) =>
    call(removeRoute, `/api/playlists/${id}/videos/${streamVideoId}`, {
      method: 'DELETE',
      bearer,
      params: { id, streamVideoId },
    });
  const reorder = (id: string, streamVideoIds: unknown, bearer: string | undefined = ownerToken) =>
    call(orderRoute, `/api/playlists/${id}/order`, { method: 'PUT', bearer, json: { streamVideoIds }, params: { id } });
  const titles = async (id: string, bearer: string | undefined = ownerToken) =>
    ((await get(id, bearer)).body as unknown as PlaylistDto).videos.map((video) => video.title);
  const mine = async (bearer = ownerToken, query = '') =>
    (await call(listRoute, `/api/playlists${query}`, { bearer })).body as unknown as PlaylistListDto;

  it('creates, lists, adds in order (idempotently), removes and reorders', async () => {
    const id = await newPlaylist({ description: 'For later.' });
    expect(id).toMatch(/^[A-Za-z0-9_-]{12}$/);
    const [a, b, c] = [
      await insertVideo(database.db, creator, { title: 'a' }),
      await insertVideo(database.db, creator, { title: 'b' }),
      await insertVideo(database.db, creator, { title: 'c' }),
    ];
    for (const video of [a, b, c]) expect((await add(id, video.streamVideoId)).status).toBe(200);
    expect(await add(id, a.streamVideoId)).toMatchObject({ status: 200, body: { inPlaylist: true, videoCount: 3 } });
    expect(await titles(id)).toEqual(['a', 'b', 'c']);

    const reordered = await reorder(id, [c.streamVideoId, a.streamVideoId, b.streamVideoId]);
    expect(reordered.status).toBe(200);
    expect((reordered.body as unknown as PlaylistDto).videos.map((video) => video.title)).toEqual(['c', 'a', 'b']);
    // Ids it does not list keep their order after those it does; ids it does not hold are ignored.
    await reorder(id, [b.streamVideoId, 'notInThisOne']);
    expect(await titles(id)).toEqual(['b', 'c', 'a']);

    expect(await remove(id, c.streamVideoId)).toMatchObject({ status: 200, body: { inPlaylist: false, videoCount: 2 } });
    expect(await remove(id, c.streamVideoId)).toMatchObject({ status: 200, body: { inPlaylist: false } });
    expect(await titles(id)).toEqual(['b', 'a']);

    const list = await mine(ownerToken, `?video=${a.streamVideoId}`);
    expect(list.playlists).toEqual([
      expect.objectContaining({
        id,
        title: 'Evening mix',
        description: 'For later.',
        visibility: 'private',
        videoCount: 2,
        hasVideo: true,
      }),
    ]);
    expect((await mine()).playlists[0]).not.toHaveProperty('hasVideo');
  });

  it('keeps one order under concurrent adds and reorders', async () => {
    const id = await newPlaylist();
    const clips = [];
    for (let i = 0; i < 6; i += 1) clips.push(await insertVideo(database.db, creator, { title: `clip ${i}` }));
    await Promise.all(clips.map((clip) => add(id, clip.streamVideoId)));
    const reversed = [...clips].reverse().map((clip) => clip.streamVideoId);
    await Promise.all([reorder(id, reversed), reorder(id, reversed)]);
    expect(await titles(id)).toEqual([...clips].reverse().map((clip) => clip.title));
    const positions = await queryRows<{ position: number }>(
      database.db,
      sql`SELECT i.position FROM playlist_items i JOIN playlists p ON p.id = i.playlist_id WHERE p.public_id = ${id} ORDER BY 1`,
    );
    expect(positions.map((row) => Number(row.position))).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('refuses hostile and over-long text with clear messages, and stores cleaned text', async () => {
    expect(await create({ title: '   ' })).toMatchObject({ status: 400, body: { message: PLAYLIST_MESSAGES.titleRequired } });
    expect(await create({})).toMatchObject({ status: 400, body: { message: PLAYLIST_MESSAGES.titleRequired } });
    expect(await create({ title: '😀'.repeat(2000) })).toMatchObject({
      status: 400,
      body: { message: PLAYLIST_MESSAGES.titleTooLong },
    });
    // 100 emoji are 100 characters, as people count them.
    expect((await create({ title: '😀'.repeat(100) })).status).toBe(201);
    expect(await create({ title: 'ok', description: 'x'.repeat(1001) })).toMatchObject({
      status: 400,
      body: { message: PLAYLIST_MESSAGES.descriptionTooLong },
    });
    expect(await create({ title: 'ok', visibility: 'secret' })).toMatchObject({
      status: 400,
      body: { message: PLAYLIST_MESSAGES.visibility },
    });
    const hostile = await create({ title: 'Mix\u0000</script >\u0007', description: 'line\r\nnext\u0000' });
    expect(hostile).toMatchObject({ status: 201, body: { title: 'Mix</script >', description: 'line\nnext' } });
    const id = (hostile.body as unknown as PlaylistSummaryDto).id;
    expect(await patch(id, {})).toMatchObject({ status: 400, body: { message: PLAYLIST_MESSAGES.nothingToChange } });
    expect(await patch(id, { title: 'x'.repeat(101) })).toMatchObject({
      status: 400,
      body: { message: PLAYLIST_MESSAGES.titleTooLong },
    });
    expect(await reorder(id, ['a', 'a'])).toMatchObject({ status: 400, body: { message: PLAYLIST_MESSAGES.orderRepeats } });
    expect(await reorder(id, 'a')).toMatchObject({ status: 400, body: { message: PLAYLIST_MESSAGES.orderList } });
    expect(await get('</script >\u0000')).toMatchObject({ status: 400, body: { message: PLAYLIST_MESSAGES.badId } });
    expect(await add(id, '</script >')).toMatchObject({ status: 400, body: { message: 'The video id is not valid.' } });
  });

  it(`holds at most ${PLAYLISTS_MAX} playlists a member and ${PLAYLIST_VIDEOS_MAX} videos a playlist`, async () => {
    await queryRows(
      database.db,
      sql`INSERT INTO playlists (public_id, owner_id, title)
          SELECT 'seed' || lpad(n::text, 8, '0'), ${owner}, 'seeded ' || n FROM generate_series(1, ${PLAYLISTS_MAX - 1}) AS n`,
    );
    const last = await newPlaylist();
    expect(await create({ title: 'one too many' })).toMatchObject({ status: 409, body: { message: PLAYLIST_MESSAGES.tooMany } });
    // Another member's limit is their own.
    expect((await create({ title: 'mine' }, otherToken)).status).toBe(201);

    const video = await insertVideo(database.db, creator, { title: 'one more' });
    const filler = await insertVideo(database.db, creator, { title: 'filler' });
    await queryRows(
      database.db,
      sql`INSERT INTO playlist_items (playlist_id, video_id, position)
          SELECT p.id, ${filler.id}, 1 FROM playlists p WHERE p.public_id = ${last}`,
    );
    // Rows need distinct videos: fill the rest with fresh ones in one statement.
    await queryRows(
      database.db,
      sql`WITH made AS (
            INSERT INTO videos (stream_video_id, owner_id, title, category, source_key, source_bytes, processing_state, moderation_status)
            SELECT 'fill' || lpad(n::text, 8, '0'), ${creator}, 'fill', 'Sissy', 'fill-' || n, 1000, 'ready', 'approved'
            FROM generate_series(2, ${PLAYLIST_VIDEOS_MAX}) AS n RETURNING id
          )
          INSERT INTO playlist_items (playlist_id, video_id, position)
          SELECT p.id, made.id, 2 FROM made, playlists p WHERE p.public_id = ${last}`,
    );
    expect(await add(last, video.streamVideoId)).toMatchObject({ status: 409, body: { message: PLAYLIST_MESSAGES.full } });
    expect((await add(last, filler.streamVideoId)).status).toBe(200);
  });

  it('lets only the owner see a private playlist and change any; unlisted is seen by link, public is listed', async () => {
    const id = await newPlaylist();
    const video = await insertVideo(database.db, creator, { title: 'shared' });
    await add(id, video.streamVideoId);
    expect(await get(id)).toMatchObject({ status: 404, body: { message: PLAYLIST_MESSAGES.notFound } });
    expect(await get(id, otherToken)).toMatchObject({ status: 404, body: { message: PLAYLIST_MESSAGES.notFound } });
    expect(await patch(id, { title: 'taken' }, otherToken)).toMatchObject({ status: 404 });
    expect(await add(id, video.streamVideoId, otherToken)).toMatchObject({ status: 404 });
    expect(await loadVisitorPlaylist(id)).toBeNull();
    expect(await listPublicPlaylists(10)).toEqual([]);

    expect(await patch(id, { visibility: 'unlisted' })).toMatchObject({ status: 200, body: { visibility: 'unlisted' } });
    expect(await titles(id, '')).toEqual(['shared']);
    expect((await get(id, otherToken)).body).toMatchObject({ owner: { username: 'pl_owner' } });
    expect(await listPublicPlaylists(10)).toEqual([]);
    // Seen is not owned: someone else's id is refused for every change.
    const notOwner = { status: 403, body: { message: PLAYLIST_MESSAGES.notOwner } };
    expect(await patch(id, { title: 'taken' }, otherToken)).toMatchObject(notOwner);
    expect(await add(id, video.streamVideoId, otherToken)).toMatchObject(notOwner);
    expect(await remove(id, video.streamVideoId, otherToken)).toMatchObject(notOwner);
    expect(await reorder(id, [], otherToken)).toMatchObject(notOwner);
    expect(
      await call(deletePlaylistRoute, `/api/playlists/${id}`, { method: 'DELETE', bearer: otherToken, params: { id } }),
    ).toMatchObject(notOwner);
    expect((await mine(otherToken)).playlists).toEqual([]);
    // Visitors ('' sends no token) are asked to log in for every change.
    expect((await patch(id, { title: 'x' }, '')).status).toBe(401);
    expect((await add(id, video.streamVideoId, '')).status).toBe(401);
    expect((await call(listRoute, '/api/playlists')).status).toBe(401);

    await patch(id, { visibility: 'public' });
    expect(await listPublicPlaylists(10)).toEqual([{ publicId: id, updatedAt: expect.any(String) }]);
    expect((await loadVisitorPlaylist(id))?.videos.map((v) => v.title)).toEqual(['shared']);

    // An owner banned: their playlists are gone for everyone else.
    await database.db.update(users).set({ bannedAt: new Date() }).where(eq(users.id, owner));
    expect((await get(id, otherToken)).status).toBe(404);
    expect(await listPublicPlaylists(10)).toEqual([]);
    await database.db.update(users).set({ bannedAt: null }).where(eq(users.id, owner));

    expect(
      await call(deletePlaylistRoute, `/api/playlists/${id}`, { method: 'DELETE', bearer: ownerToken, params: { id } }),
    ).toMatchObject({ status: 200, body: { deleted: true } });
    expect((await get(id, ownerToken)).status).toBe(404);
  });

  it('adds only public videos, skips videos that stop being public (they come back), and loses deleted ones', async () => {
    const id = await newPlaylist({ visibility: 'public' });
    const pending = await insertVideo(database.db, creator, { moderationStatus: 'pending', publishedAt: null });
    expect(await add(id, pending.streamVideoId)).toMatchObject({ status: 404, body: { message: 'Video not found' } });
    expect(await add(id, 'unknownVideo1')).toMatchObject({ status: 404, body: { message: 'Video not found' } });

    const hidden = await insertVideo(database.db, creator, { title: 'will be hidden' });
    const kept = await insertVideo(database.db, creator, { title: 'kept' });
    const deleted = await insertVideo(database.db, creator, { title: 'will be deleted' });
    for (const video of [hidden, kept, deleted]) await add(id, video.streamVideoId);
    await database.db.update(videos).set({ moderationStatus: 'rejected' }).where(eq(videos.id, hidden.id));
    await database.db.delete(videos).where(eq(videos.id, deleted.id));
    expect(await titles(id, otherToken)).toEqual(['kept']);
    expect((await mine()).playlists[0]).toMatchObject({ videoCount: 1 });
    // Hidden, it is a 404 to add; its owner can still take it out; published again, it is back in its place.
    expect(await remove(id, pending.streamVideoId)).toMatchObject({ status: 404 });
    await database.db.update(videos).set({ moderationStatus: 'approved' }).where(eq(videos.id, hidden.id));
    expect(await titles(id)).toEqual(['will be hidden', 'kept']);
    const rows = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM playlist_items WHERE video_id = ${deleted.id}`,
    );
    expect(Number(rows[0]!.n)).toBe(0);
  });

  it("puts a member's playlists in their export, and deleting the account deletes them", async () => {
    const token = await verifiedMemberToken(database.db, 'pl_leaver');
    const leaver = await userId(database.db, 'pl_leaver');
    const created = await create({ title: 'Leaving mix', visibility: 'public' }, token);
    const id = (created.body as unknown as PlaylistSummaryDto).id;
    const video = await insertVideo(database.db, creator, { title: 'in export' });
    await add(id, video.streamVideoId, token);

    const [user] = await database.db.select().from(users).where(eq(users.id, leaver));
    const data = await collectMemberData(database.db, user!, async () => false);
    expect(data.json['playlists.json']).toEqual([
      expect.objectContaining({
        id,
        title: 'Leaving mix',
        visibility: 'public',
        videos: [
          { streamVideoId: video.streamVideoId, url: `${ORIGIN}/video/${video.streamVideoId}`, addedAt: expect.any(String) },
        ],
      }),
    ]);

    const deletion = await call(deleteAccountRoute, '/api/users/settings/account', {
      method: 'DELETE',
      bearer: token,
      json: { currentPassword: 'pl_leaver-password-1', username: 'pl_leaver' },
    });
    expect(deletion.status).toBe(200);
    expect((await get(id, otherToken)).status).toBe(404);
    expect(await database.db.select().from(playlists).where(eq(playlists.ownerId, leaver))).toEqual([]);
  });
});
