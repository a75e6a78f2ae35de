/**
 * Per-member budgets for expensive actions (issue 33, item 7): a script with
 * a member's token hammers each endpoint past its budget and gets a 429 with
 * Retry-After and a clear message, never the work. And every 429 the error
 * mapper makes carries Retry-After, by construction.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import sharp from 'sharp';

import { PATCH as editComment } from '@/app/api/comments/[id]/route';
import { POST as requestExport } from '@/app/api/users/me/export/route';
import { POST as submitVerification } from '@/app/api/users/me/verification/route';
import { DELETE as unfollow, POST as follow } from '@/app/api/users/[username]/follow/route';
import { DELETE as removePhoto, PUT as changePhoto } from '@/app/api/users/settings/photo/route';
import { PUT as editProfile } from '@/app/api/users/settings/profile/route';
import { POST as postComment } from '@/app/api/videos/[streamVideoId]/comments/route';
import { DELETE as unlike, POST as like } from '@/app/api/videos/[streamVideoId]/like/route';
import { PUT as savePerformers } from '@/app/api/videos/[streamVideoId]/performers/route';
import { PATCH as editVideo } from '@/app/api/videos/[streamVideoId]/route';
import { POST as upload } from '@/app/api/videos/upload/route';
import { POST as tus } from '@/app/api/videos/uploads/[[...id]]/route';
import { installDatabase } from '@/lib/db';
import { dataExports, identityVerifications } from '@/lib/db/schema';
import { ApiError, tooManyRequests } from '@/lib/server/errors';
import { errorResponse } from '@/lib/server/route-handler';
import { LIMITS, resetLimiters, type LimitName } from '@/lib/server/rate-limit';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-budgets-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
// The daily upload quota out of the way: the ten-minute budget is what is hammered here.
process.env.UPLOADS_PER_DAY = '10000';
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

type Answer = Awaited<ReturnType<typeof call>>;

/** A refusal as a script meets it: 429, a whole number of seconds in Retry-After (and the body), and words that say what and when. */
function expectBudgetSpent(response: Answer, limit: LimitName, doing: RegExp) {
  expect({ status: response.status, message: response.body.message }).toEqual({
    status: 429,
    message: expect.stringMatching(doing),
  });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(LIMITS[limit].duration);
  expect(response.body.retryAfter).toBe(retryAfter);
  expect(response.body.message).toMatch(/Please try again in \d+ (second|minute|hour)s?\.$/);
}

describe('the error mapper', () => {
  it('answers every 429 with Retry-After in whole seconds, at least 1, equal to the body’s retryAfter', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e7, noNaN: true }), fc.string(), (seconds, message) => {
        const response = errorResponse(new Request(`${ORIGIN}/api/x`), tooManyRequests(seconds, message || undefined));
        const header = response.headers.get('retry-after');
        expect(response.status).toBe(429);
        expect(header).toBe(String(Math.max(1, Math.ceil(seconds))));
      }),
    );
  });

  it('cannot make a 429 without the seconds to wait', () => {
    expect(() => new ApiError(429, 'Slow down')).toThrow(/tooManyRequests/);
    expect(() => new ApiError(429, 'Slow down', { retryAfter: 0 })).toThrow(/tooManyRequests/);
    expect(
      errorResponse(new Request(`${ORIGIN}/api/x`), new ApiError(429, 'Slow down', { retryAfter: 7 })).headers.get('retry-after'),
    ).toBe('7');
  });
});

describe.each(ENGINES)('per-member budgets on %s', (engine) => {
  let database: TestDatabase;
  let member = 0;
  /** A fresh member for each budget, so budgets never share a count. */
  const newMember = async () => {
    const name = `budget${(member += 1)}`;
    return { token: await verifiedMemberToken(database.db, name), id: await userId(database.db, name), name };
  };
  let photo: Buffer;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    photo = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#aa3366' } })
      .png()
      .toBuffer();
  });
  afterAll(() => database.destroy());

  /** Sends `send(i)` for as many as the budget allows (each must not be a 429), then once more: that one is the refusal. */
  async function hammer(limit: LimitName, send: (i: number) => Promise<Answer>): Promise<Answer> {
    const allowed = LIMITS[limit].points;
    for (let i = 0; i < allowed; i += 1) {
      const response = await send(i);
      // Within the budget: the endpoint's own answer (a 400 for the empty upload form), never a 429 or a 5xx.
      expect({ i, status: response.status, spent: response.status === 429 || response.status >= 500 }).toMatchObject({
        i,
        spent: false,
      });
    }
    return send(allowed);
  }

  it('profile photo changes and removals: 10 an hour', async () => {
    const { token } = await newMember();
    const form = () => {
      const data = new FormData();
      data.set('profilePhoto', new File([new Uint8Array(photo)], 'me.png', { type: 'image/png' }));
      return data;
    };
    const refused = await hammer('profilePhotoChangesPerMember', (i) =>
      i % 2 === 0
        ? call(changePhoto, '/api/users/settings/photo', { method: 'PUT', form: form(), bearer: token })
        : call(removePhoto, '/api/users/settings/photo', { method: 'DELETE', bearer: token }),
    );
    expectBudgetSpent(
      refused,
      'profilePhotoChangesPerMember',
      /^You have changed your profile photo many times in a short time\./,
    );
    expectBudgetSpent(
      await call(removePhoto, '/api/users/settings/photo', { method: 'DELETE', bearer: token }),
      'profilePhotoChangesPerMember',
      /profile photo/,
    );
  });

  it('profile edits: 30 an hour', async () => {
    const { token } = await newMember();
    const refused = await hammer('profileEditsPerMember', (i) =>
      call(editProfile, '/api/users/settings/profile', { method: 'PUT', json: { bio: `Bio ${i}` }, bearer: token }),
    );
    expectBudgetSpent(refused, 'profileEditsPerMember', /^You have edited your profile many times/);
  });

  it('uploads started, multipart: 30 in ten minutes, refused before the body is read', async () => {
    const { token } = await newMember();
    const form = () => {
      const data = new FormData();
      data.set('title', '');
      data.set('video', new File([new Uint8Array(16)], 'clip.mp4'));
      return data;
    };
    const refused = await hammer('uploadStartsPerMember', () =>
      call(upload, '/api/videos/upload', { form: form(), bearer: token }),
    );
    expectBudgetSpent(refused, 'uploadStartsPerMember', /^You have started new uploads many times in a short time\./);
  });

  it('uploads started, tus creation: the same budget, and its 429 carries Retry-After too', async () => {
    const { token } = await newMember();
    const b64 = (value: string) => Buffer.from(value).toString('base64');
    const metadata = `filename ${b64('clip.mp4')},title ${b64('Budget')},category ${b64('Sissy')}`;
    const refused = await hammer('uploadStartsPerMember', () =>
      call(tus, '/api/videos/uploads', {
        method: 'POST',
        bearer: token,
        headers: { 'tus-resumable': '1.0.0', 'upload-length': '1000', 'upload-metadata': metadata },
      }),
    );
    expectBudgetSpent(refused, 'uploadStartsPerMember', /^You have started new uploads many times/);
  });

  it('data exports: 5 a day (asking while one is pending costs nothing)', async () => {
    const { token, id } = await newMember();
    const refused = await hammer('dataExportsPerMember', async () => {
      const response = await call(requestExport, '/api/users/me/export', { method: 'POST', bearer: token });
      if (response.status === 429) return response;
      expect(response.status).toBe(202);
      // Asked again while it is pending: a 409 that does not count.
      expect((await call(requestExport, '/api/users/me/export', { method: 'POST', bearer: token })).status).toBe(409);
      await database.db.update(dataExports).set({ status: 'failed' }).where(eq(dataExports.userId, id));
      return response;
    });
    expectBudgetSpent(refused, 'dataExportsPerMember', /^You have asked for a data export many times/);
  });

  it('edits of one’s own videos: 30 an hour', async () => {
    const { token, id } = await newMember();
    const video = await insertVideo(database.db, id);
    const refused = await hammer('videoEditsPerMember', (i) =>
      call(editVideo, `/api/videos/${video.streamVideoId}`, {
        method: 'PATCH',
        json: { title: `Title ${i}` },
        bearer: token,
        params: { streamVideoId: video.streamVideoId },
      }),
    );
    expectBudgetSpent(refused, 'videoEditsPerMember', /^You have edited your videos many times/);
  });

  it('comment edits: 20 in ten minutes', async () => {
    const owner = await newMember();
    const { token } = await newMember();
    const video = await insertVideo(database.db, owner.id);
    const posted = await call(postComment, `/api/videos/${video.streamVideoId}/comments`, {
      json: { body: 'First!' },
      bearer: token,
      params: { streamVideoId: video.streamVideoId },
    });
    expect(posted.status).toBe(201);
    const commentId = (posted.body.comment as { _id: string })._id;
    const refused = await hammer('commentEditsPerMember', (i) =>
      call(editComment, `/api/comments/${commentId}`, {
        method: 'PATCH',
        json: { body: `Edit ${i}` },
        bearer: token,
        params: { id: commentId },
      }),
    );
    expectBudgetSpent(refused, 'commentEditsPerMember', /^You have edited your comments many times/);
  });

  it('likes and unlikes: 300 an hour', async () => {
    const owner = await newMember();
    const { token } = await newMember();
    const video = await insertVideo(database.db, owner.id);
    const route = `/api/videos/${video.streamVideoId}/like`;
    const refused = await hammer('likesPerMember', (i) =>
      call(i % 2 === 0 ? like : unlike, route, {
        method: i % 2 === 0 ? 'POST' : 'DELETE',
        bearer: token,
        params: { streamVideoId: video.streamVideoId },
      }),
    );
    expectBudgetSpent(refused, 'likesPerMember', /^You have liked or unliked videos many times/);
  });

  it('follows and unfollows: 100 an hour', async () => {
    const creator = await newMember();
    const { token } = await newMember();
    const route = `/api/users/${creator.name}/follow`;
    const refused = await hammer('followsPerMember', (i) =>
      call(i % 2 === 0 ? follow : unfollow, route, {
        method: i % 2 === 0 ? 'POST' : 'DELETE',
        bearer: token,
        params: { username: creator.name },
      }),
    );
    expectBudgetSpent(refused, 'followsPerMember', /^You have followed or unfollowed members many times/);
  });

  it('performer records saved: 20 an hour', async () => {
    const { token, id } = await newMember();
    const video = await insertVideo(database.db, id, { moderationStatus: 'pending', publishedAt: null });
    const form = () => {
      const data = new FormData();
      data.set('records', JSON.stringify({ recordedOn: '2025-01-01', uploaderAppears: true, coPerformers: [] }));
      return data;
    };
    const refused = await hammer('performerRecordsPerMember', () =>
      call(savePerformers, `/api/videos/${video.streamVideoId}/performers`, {
        method: 'PUT',
        form: form(),
        bearer: token,
        params: { streamVideoId: video.streamVideoId },
      }),
    );
    expectBudgetSpent(refused, 'performerRecordsPerMember', /^You have saved performer records many times/);
  });

  it('identity verifications sent: 5 a day', async () => {
    const { token, id } = await newMember();
    const form = () => {
      const data = new FormData();
      data.set('legalName', 'Budget Tester');
      data.set('dateOfBirth', '1990-01-01');
      data.set('idDocument', new File([new Uint8Array(photo)], 'id.png', { type: 'image/png' }));
      data.set('selfie', new File([new Uint8Array(photo)], 'selfie.png', { type: 'image/png' }));
      return data;
    };
    const refused = await hammer('verificationsPerMember', async () => {
      const response = await call(submitVerification, '/api/users/me/verification', {
        method: 'POST',
        form: form(),
        bearer: token,
      });
      if (response.status !== 429) expect(response.status).toBe(201);
      // Rejected, so the member may send again: only the budget stops the next one.
      await database.db.update(identityVerifications).set({ status: 'rejected' }).where(eq(identityVerifications.userId, id));
      return response;
    });
    expectBudgetSpent(refused, 'verificationsPerMember', /^You have sent an identity verification many times/);
  });
});
