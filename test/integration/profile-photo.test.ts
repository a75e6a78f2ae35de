import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import sharp from 'sharp';

import { GET as avatarFile } from '@/app/media/avatars/[file]/route';
import { GET as profile } from '@/app/api/users/[username]/route';
import { DELETE as removePhoto, PUT as changePhoto } from '@/app/api/users/settings/photo/route';
import { installDatabase } from '@/lib/db';
import { users } from '@/lib/db/schema';
import { onAppEvent } from '@/lib/events';
import { resetLimiters } from '@/lib/server/rate-limit';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken } from '../helpers/members';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-photo-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const avatarsDir = path.join(dataDir, 'media', 'avatars');
const avatarFiles = () => {
  try {
    return readdirSync(avatarsDir).sort();
  } catch {
    return [];
  }
};

const filesOf = (key: string | null) => avatarFiles().filter((f) => key && f.startsWith(`${key}-`));

const solid = (background: string, width = 300, height = 200) => sharp({ create: { width, height, channels: 3, background } });
const photoForm = (bytes: Uint8Array | string, name = 'me.jpg', type = 'image/jpeg') => {
  const form = new FormData();
  form.append('profilePhoto', new File([bytes as BlobPart], name, { type }));
  return form;
};

describe.each(ENGINES)('profile photo in settings on %s', (engine) => {
  let database: TestDatabase;
  let n = 0;
  const purged: string[] = [];
  let stopListening: () => void;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    stopListening = onAppEvent('public-content-changed', (prefix) => purged.push(prefix));
  });
  afterAll(async () => {
    stopListening();
    await database.destroy();
  });

  async function newMember() {
    const username = `photo_member_${(n += 1)}`;
    const token = await verifiedMemberToken(database.db, username);
    return { username, token };
  }
  const keyOf = async (username: string) =>
    (await database.db.select().from(users).where(eq(users.username, username)))[0]!.profilePhotoKey;
  const put = (token: string, form: FormData) =>
    call(changePhoto, '/api/users/settings/photo', { method: 'PUT', form, bearer: token });

  it('replaces the photo with a re-encoded square WebP without metadata (EXIF GPS included), deletes the old files and purges cached pages', async () => {
    const { username, token } = await newMember();
    const first = await put(token, photoForm(await solid('#ff4fa3').png().toBuffer(), 'first.png', 'image/png'));
    expect(first.status).toBe(200);
    const firstKey = await keyOf(username);
    expect(first.body).toMatchObject({
      message: 'Profile photo updated.',
      user: { username, profilePhotoUrl: `/media/avatars/${firstKey}-256.webp` },
    });
    expect(filesOf(firstKey)).toEqual([`${firstKey}-256.webp`, `${firstKey}-64.webp`]);

    const withGps = await solid('#6b4fff', 640, 480)
      .jpeg()
      .withExif({
        IFD0: { Copyright: 'where-i-live-secret', Make: 'SecretCam' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 3230/100', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 4366/100' },
      })
      .toBuffer();
    expect((await sharp(withGps).metadata()).exif?.toString('latin1')).toContain('SecretCam');
    purged.length = 0;
    const second = await put(token, photoForm(withGps));
    expect(second.status).toBe(200);
    const secondKey = await keyOf(username);
    expect(secondKey).not.toBe(firstKey);
    // The old photo's files are gone; only the new ones are left.
    expect(filesOf(firstKey)).toEqual([]);
    expect(filesOf(secondKey)).toEqual([`${secondKey}-256.webp`, `${secondKey}-64.webp`]);
    for (const size of [256, 64]) {
      const file = path.join(avatarsDir, `${secondKey}-${size}.webp`);
      const meta = await sharp(file).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: size, height: size });
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      const bytes = readFileSync(file).toString('latin1');
      expect(bytes).not.toContain('SecretCam');
      expect(bytes).not.toContain('where-i-live-secret');
    }
    expect(purged).toContain('/video/');
    // The old address answers 404; the new one serves the picture.
    expect(
      (await call(avatarFile, `/media/avatars/${firstKey}-256.webp`, { params: { file: `${firstKey}-256.webp` } })).status,
    ).toBe(404);
    expect(
      (await call(avatarFile, `/media/avatars/${secondKey}-256.webp`, { params: { file: `${secondKey}-256.webp` } })).status,
    ).toBe(200);
  });

  it('refuses what is not an image, by content, whatever its name and type, and keeps the current photo', async () => {
    const { username, token } = await newMember();
    await put(token, photoForm(await solid('#00aa88').png().toBuffer(), 'ok.png', 'image/png'));
    const key = await keyOf(username);
    const before = avatarFiles();
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>';
    for (const [bytes, name, type] of [
      ['#!/bin/sh\necho not an image', 'photo.jpg', 'image/jpeg'],
      ['<html><script>alert(document.cookie)</script></html>', 'photo.png', 'image/png'],
      [svg, 'photo.svg', 'image/svg+xml'],
      // A GIF/JavaScript polyglot: GIF's magic bytes, then a script, but no image to decode.
      ['GIF89a/*\u0000\u0000*/=1;alert(1)//', 'photo.gif', 'image/gif'],
      [new Uint8Array(0), 'empty.png', 'image/png'],
    ] as const) {
      const refused = await put(token, photoForm(bytes, name, type));
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        field: 'profilePhoto',
        message: 'Profile photo must be an image file (JPEG, PNG, WebP, GIF or AVIF).',
      });
    }
    expect(await keyOf(username)).toBe(key);
    expect(avatarFiles()).toEqual(before);
  });

  it('stores only the picture of a polyglot that is a real image carrying a payload', async () => {
    const { username, token } = await newMember();
    const payload = '<script>alert("polyglot")</script><?php system($_GET["c"]); ?>';
    // A real PNG with HTML, PHP and a ZIP end record after its last chunk.
    const png = await solid('#336699').png().toBuffer();
    const polyglot = Buffer.concat([png, Buffer.from(payload), Buffer.from('PK\u0005\u0006' + '\u0000'.repeat(18), 'latin1')]);
    const answer = await put(token, photoForm(polyglot, 'photo.png.html', 'text/html'));
    expect(answer.status).toBe(200);
    const key = await keyOf(username);
    for (const size of [256, 64]) {
      const bytes = readFileSync(path.join(avatarsDir, `${key}-${size}.webp`));
      expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
      expect(bytes.toString('latin1')).not.toContain('polyglot');
      expect(bytes.toString('latin1')).not.toContain('PK\u0005\u0006');
    }
    const served = await call(avatarFile, `/media/avatars/${key}-256.webp`, { params: { file: `${key}-256.webp` } });
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses a photo over 5 MB with 413, and a body over the form cap before reading it all', async () => {
    const { username, token } = await newMember();
    // Real image bytes padded past 5 MB (random pixels do not compress).
    const noise = Buffer.alloc(1400 * 1400 * 3);
    for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 2654435761) >>> 24;
    const big = await sharp(noise, { raw: { width: 1400, height: 1400, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    expect(big.length).toBeLessThan(6 * 1024 * 1024);
    const tooBig = await put(token, photoForm(big, 'big.png', 'image/png'));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe('Profile photo is too large. The limit is 5 MB.');
    const huge = await put(token, photoForm(new Uint8Array(7 * 1024 * 1024), 'huge.png', 'image/png'));
    expect(huge.status).toBe(413);
    expect(huge.body.message).toBe('Profile photo is too large. The limit is 5 MB.');
    expect(await keyOf(username)).toBeNull();
  });

  it('asks for a file when none is sent, and answers a non-form body with 415', async () => {
    const { token } = await newMember();
    const empty = await put(token, new FormData());
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Choose an image to use as your profile photo.');
    const json = await call(changePhoto, '/api/users/settings/photo', {
      method: 'PUT',
      json: { profilePhoto: 'x' },
      bearer: token,
    });
    expect(json.status).toBe(415);
  });

  it('removes the photo: the files go, and the profile shows the default avatar', async () => {
    const { username, token } = await newMember();
    await put(token, photoForm(await solid('#aa3300').jpeg().toBuffer()));
    const key = await keyOf(username);
    expect(avatarFiles()).toContain(`${key}-256.webp`);
    purged.length = 0;
    const removed = await call(removePhoto, '/api/users/settings/photo', { method: 'DELETE', bearer: token });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ message: 'Profile photo removed.', user: { profilePhotoUrl: null } });
    expect(await keyOf(username)).toBeNull();
    expect(filesOf(key)).toEqual([]);
    expect(purged).toContain('/video/');
    const shown = await call(profile, `/api/users/${username}`, { bearer: token, params: { username } });
    expect(shown.body.user).toMatchObject({ username, profilePhotoUrl: null });
    // Removing when there is none is no error.
    expect((await call(removePhoto, '/api/users/settings/photo', { method: 'DELETE', bearer: token })).status).toBe(200);
  });

  it('leaves exactly one photo behind when two changes race', async () => {
    const { username, token } = await newMember();
    const colours = ['#111111', '#222222', '#333333'];
    const answers = await Promise.all(
      colours.map(async (c) => put(token, photoForm(await solid(c).png().toBuffer(), 'p.png', 'image/png'))),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const key = await keyOf(username);
    const mine = avatarFiles().filter((f) =>
      answers.some((a) => f.startsWith(String((a.body.user as { profilePhotoUrl: string }).profilePhotoUrl).slice(15, 39))),
    );
    expect(mine).toEqual([`${key}-256.webp`, `${key}-64.webp`]);
  });

  it('refuses visitors', async () => {
    expect((await call(changePhoto, '/api/users/settings/photo', { method: 'PUT', form: photoForm('x') })).status).toBe(401);
    expect((await call(removePhoto, '/api/users/settings/photo', { method: 'DELETE' })).status).toBe(401);
  });
});
