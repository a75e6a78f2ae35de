/**
 * Mail to addresses a visitor typed (issue 33, item 5): the public forms
 * (notices, DMCA notices, withdrawals of consent) mail whatever address the
 * sender gives, from the site's own address. Each of those messages, and
 * every later one to that address (outcomes, the forwarded counter-notice,
 * the restore), must carry only our fixed text and a reference, never what
 * anyone typed, or the site is a phishing relay with its name on it; and
 * one inbox gets a few acknowledgements a day, however many networks send.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { and, eq } from 'drizzle-orm';

import { POST as resolveWithdrawal } from '@/app/api/admin/consent-withdrawals/[id]/route';
import { PATCH as decide } from '@/app/api/admin/reports/[id]/route';
import { POST as withdraw } from '@/app/api/consent-withdrawals/route';
import { POST as counterNotice } from '@/app/api/copyright/counter-notices/route';
import { POST as dmca } from '@/app/api/copyright/notices/route';
import { POST as sendNotice } from '@/app/api/notices/route';
import { installDatabase } from '@/lib/db';
import { consentWithdrawals, copyrightTakedowns, jobs, reports } from '@/lib/db/schema';
import { resetLimiters } from '@/lib/server/rate-limit';
import { counterNoticeForClaimant, restoreAfterCounterNotice } from '@/lib/server/trust/copyright';
import { TRUST_EMAIL_JOB, TRUST_MAIL_JOB_HANDLERS } from '@/lib/server/trust/mail';

import { call, ORIGIN, outbox } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { heldJobContext } from '../helpers/jobs';
import { promoteToAdmin, verifiedMemberToken, verifiedUploader } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-stranger-mail-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** What a phisher types: a lure, a link, a script end tag with a space, a NUL, then emoji up to the field's limit. */
const LURE = 'URGENT: your account is locked. Verify now at https://evil.example/login </script ><script>alert(1)</script>\u0000';
const hostile = (maxUnits: number) => `${LURE}${'🦋'.repeat(Math.floor((maxUnits - LURE.length) / 2))}`;
const EMOJI_2000 = '🦋'.repeat(2000);
/** None of these may reach an inbox: each is in every hostile field. */
const TYPED = ['URGENT', 'Verify now', 'evil.example', '</script', 'alert(1)', '🦋'];

describe.each(ENGINES)('mail to addresses strangers type, on %s', (engine) => {
  let database: TestDatabase;
  let uploaderId: string;
  let uploaderToken: string;
  let adminToken: string;
  let address = 0;
  const nextIp = () => `198.51.100.${(address += 1) % 250}`;

  async function runMailJobs() {
    const queued = await database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.type, TRUST_EMAIL_JOB), eq(jobs.status, 'queued')));
    for (const job of queued) {
      await TRUST_MAIL_JOB_HANDLERS[TRUST_EMAIL_JOB]!(job, heldJobContext());
      await database.db.update(jobs).set({ status: 'done' }).where(eq(jobs.id, job.id));
    }
  }
  /** The messages that reached an inbox, as its reader sees them (headers and parts decoded). */
  async function inbox(recipient: string) {
    await runMailJobs();
    return outbox(dataDir).filter((mail) => mail.to.toLowerCase().includes(recipient.toLowerCase()));
  }
  function expectNothingTyped(mails: { text: string; subject: string }[], count: number) {
    expect(mails).toHaveLength(count);
    for (const mail of mails)
      for (const typed of TYPED)
        expect({ subject: mail.subject, has: mail.text.includes(typed) ? typed : null }).toEqual({
          subject: mail.subject,
          has: null,
        });
  }

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    uploaderToken = await verifiedMemberToken(database.db, 'uploader');
    uploaderId = await userId(database.db, 'uploader');
    await verifiedUploader(database.db, uploaderId);
    adminToken = await verifiedMemberToken(database.db, 'moderator');
    await promoteToAdmin(database.db, await userId(database.db, 'moderator'));
  });
  afterAll(() => database.destroy());
  beforeEach(() => rmSync(path.join(dataDir, 'outbox'), { recursive: true, force: true }));

  it('a withdrawal of consent: the acknowledgement and the outcome quote no name, link or statement, for a known video or an unknown one', async () => {
    const video = await insertVideo(database.db, uploaderId, { title: 'URGENT Verify now evil.example' });
    const fields = {
      dateOfBirth: '1990-01-01',
      email: 'victim-one@example.org',
      legalName: hostile(200),
      statement: hostile(2000),
    };
    const known = await call(withdraw, '/api/consent-withdrawals', {
      ip: nextIp(),
      json: { ...fields, video: `https://evil.example/video/${video.streamVideoId}` },
    });
    const unknown = await call(withdraw, '/api/consent-withdrawals', {
      ip: nextIp(),
      json: { ...fields, video: 'https://evil.example/video/VerifyYourAccountNow' },
    });
    expect(known.status).toBe(202);
    expect(unknown).toEqual({ ...known, headers: unknown.headers });
    expectNothingTyped(await inbox('victim-one@example.org'), 2);

    const [row] = await database.db.select().from(consentWithdrawals).where(eq(consentWithdrawals.videoId, video.id));
    expect(row!.legalName).toContain('</script >');
    const confirmed = await call(resolveWithdrawal, `/api/admin/consent-withdrawals/${row!.id}`, {
      json: { action: 'confirm' },
      bearer: adminToken,
      params: { id: row!.id },
    });
    expect(confirmed.status).toBe(200);
    const mails = await inbox('victim-one@example.org');
    expectNothingTyped(mails, 3);
    expect(mails[2]!.text).toContain(video.streamVideoId);
  });

  it('a notice: the acknowledgement and the outcome carry the reference, never the name, signature or details', async () => {
    const video = await insertVideo(database.db, uploaderId, { title: 'URGENT Verify now evil.example' });
    const response = await call(sendNotice, '/api/notices', {
      ip: nextIp(),
      json: {
        video: `${ORIGIN}/video/${video.streamVideoId}`,
        reason: 'non_consensual',
        details: EMOJI_2000,
        name: hostile(200),
        signature: hostile(200),
        email: 'victim-two@example.org',
        goodFaith: true,
      },
    });
    expect(response.status).toBe(201);
    const reference = response.body.reference as string;
    const acknowledged = await inbox('victim-two@example.org');
    expectNothingTyped(acknowledged, 1);
    expect(acknowledged[0]!.text).toContain(reference);

    const decided = await call(decide, `/api/admin/reports/${reference}`, {
      method: 'PATCH',
      json: { action: 'dismiss' },
      bearer: adminToken,
      params: { id: reference },
    });
    expect(decided.status).toBe(200);
    expectNothingTyped(await inbox('victim-two@example.org'), 2);
  });

  it('a DMCA notice and its counter-notice: the claimant’s mail quotes neither; the counter-notice is on the linked page only', async () => {
    const video = await insertVideo(database.db, uploaderId, { title: 'URGENT Verify now evil.example' });
    const notice = await call(dmca, '/api/copyright/notices', {
      ip: nextIp(),
      json: {
        video: `${ORIGIN}/video/${video.streamVideoId}`,
        work: EMOJI_2000,
        name: hostile(200),
        address: hostile(500),
        phone: '+1 555 010 0000',
        email: 'victim-three@example.org',
        signature: hostile(200),
        goodFaith: true,
        perjury: true,
      },
    });
    expect(notice.status).toBe(201);
    const acknowledged = await inbox('victim-three@example.org');
    expectNothingTyped(acknowledged, 1);
    expect(acknowledged[0]!.text).toContain(notice.body.reference as string);

    // The uploader (who may be the same person as the "claimant") answers with text of their own.
    const counter = await call(counterNotice, '/api/copyright/counter-notices', {
      bearer: uploaderToken,
      json: {
        video: video.streamVideoId,
        material: EMOJI_2000,
        name: hostile(200),
        address: hostile(500),
        phone: '+44 20 7946 0000',
        signature: hostile(200),
        mistake: true,
        jurisdiction: true,
      },
    });
    expect(counter.status).toBe(201);
    const forwarded = await inbox('victim-three@example.org');
    expectNothingTyped(forwarded, 2);
    const token = decodeURIComponent(/\/copyright\/lawsuit\?token=([A-Za-z0-9_%-]+)/.exec(forwarded[1]!.text)![1]!);
    const copy = await counterNoticeForClaimant(token);
    expect(copy).toMatchObject({
      reference: notice.body.reference,
      material: EMOJI_2000,
      phone: '+44 20 7946 0000',
      status: 'counter_noticed',
    });
    expect(copy!.name).toContain('</script >');

    const [takedown] = await database.db.select().from(copyrightTakedowns).where(eq(copyrightTakedowns.videoId, video.id));
    expect(await restoreAfterCounterNotice(takedown!.id, new Date(takedown!.restoreAt!.getTime() + 1000))).toBe('restored');
    expectNothingTyped(await inbox('victim-three@example.org'), 3);
  });

  it('one inbox gets at most 3 acknowledgements a day (LIMITS.acknowledgementsPerRecipient) from any number of networks, and the forms answer the same after', async () => {
    const victim = 'victim-four@example.org';
    const spellings = [
      victim,
      'Victim-Four@Example.org',
      'victim-four+a@example.org',
      'VICTIM-FOUR+b@example.org',
      'victim-four+c@example.org',
      victim,
    ];
    const answers = [];
    for (const [index, email] of spellings.entries()) {
      const video = await insertVideo(database.db, uploaderId);
      const json = {
        video: video.streamVideoId,
        reason: 'other',
        details: 'Please look at this.',
        name: 'Jo',
        signature: 'Jo',
        email,
        goodFaith: true,
      };
      // A withdrawal, a notice and a DMCA notice share the budget: it is the inbox that is protected.
      const response =
        index % 3 === 0
          ? await call(withdraw, '/api/consent-withdrawals', {
              ip: nextIp(),
              json: {
                video: video.streamVideoId,
                legalName: 'Jo',
                dateOfBirth: '1990-01-01',
                email,
                statement: 'I am in this video.',
              },
            })
          : index % 3 === 1
            ? await call(sendNotice, '/api/notices', { ip: nextIp(), json })
            : await call(dmca, '/api/copyright/notices', {
                ip: nextIp(),
                json: {
                  video: video.streamVideoId,
                  work: 'My film',
                  name: 'Jo',
                  address: '1 Main St',
                  phone: '+1 555 010 0000',
                  email,
                  signature: 'Jo',
                  goodFaith: true,
                  perjury: true,
                },
              });
      answers.push({ status: response.status, message: response.body.message });
    }
    expect(answers.map((answer) => answer.status)).toEqual([202, 201, 201, 202, 201, 201]);
    // The answers after the budget is spent are those before it: the limit tells the sender nothing.
    expect(answers.slice(3)).toEqual(answers.slice(0, 3));
    expect(await inbox(victim.split('@')[0]!)).toHaveLength(3);
    // Every notice was filed all the same; only the mail was skipped.
    expect(await database.db.select().from(reports).where(eq(reports.notifierEmail, 'victim-four+c@example.org'))).toHaveLength(
      1,
    );
  });
});
