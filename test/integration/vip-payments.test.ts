import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq, sql } from 'drizzle-orm';

import { GET as me } from '@/app/api/auth/me/route';
import { GET as postbackGet, POST as postbackPost } from '@/app/api/payments/verotel/postback/route';
import { POST as checkout } from '@/app/api/vip/checkout/route';
import { GET as status } from '@/app/api/vip/status/route';
import type { VipStatusDto } from '@/lib/api-types';
import { installDatabase, queryRows } from '@/lib/db';
import { entitlements, jobs, users } from '@/lib/db/schema';
import { resetLimiters } from '@/lib/server/rate-limit';
import { EXPIRE_VIP_JOB, expireEntitlements, expireVipJob, scheduleVipExpiry } from '@/lib/server/vip/expiry';

import { call, ORIGIN } from '../helpers/api';
import { captureLogs, LEVEL } from '../helpers/logs';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { endOfFlexpayDay, flexpayDay, flexpaySign, saleFromCheckout, signedPostback } from '../helpers/flexpay';
import { heldJobContext } from '../helpers/jobs';
import { verifiedMemberToken } from '../helpers/members';
import { userId } from '../helpers/videos';

const SHOP_ID = '424242';
const SECRET = 'integration-signature-key';
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-vip-payments-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
process.env.VEROTEL_SHOP_ID = SHOP_ID;
process.env.VEROTEL_SIGNATURE_KEY = SECRET;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const DAY = 86_400_000;
const POSTBACK = '/api/payments/verotel/postback';
let nextSale = 1000;

describe.each(ENGINES)('VIP payments through Verotel on %s', (engine) => {
  let database: TestDatabase;
  let logs: ReturnType<typeof captureLogs>;
  const warnings = () => logs.at(LEVEL.warn).map((record) => record.msg);

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
  }, 60_000);
  afterAll(() => database.destroy());
  // Refused and rejected postbacks are logged; the tests read those records instead of printing them.
  beforeEach(() => {
    logs = captureLogs();
  });
  afterEach(() => {
    logs.restore();
  });

  const member = async (name: string) => ({
    token: await verifiedMemberToken(database.db, name),
    id: await userId(database.db, name),
  });
  const isVip = async (token: string) =>
    ((await call(me, '/api/auth/me', { bearer: token })).body.user as { isVIP: boolean }).isVIP;
  const vipStatus = async (token?: string) =>
    (await call(status, '/api/vip/status', { bearer: token })).body as unknown as VipStatusDto;
  const startCheckout = (token: string | undefined, plan: unknown) =>
    call(checkout, '/api/vip/checkout', { json: { plan }, bearer: token });
  const send = (params: Record<string, string>) => call(postbackGet, `${POSTBACK}?${new URLSearchParams(params)}`);
  const sendSigned = (params: Record<string, string>) => send(signedPostback(SECRET, { shopID: SHOP_ID, ...params }));
  const count = async (table: 'payment_events' | 'entitlements' | 'checkouts') =>
    (await queryRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`))[0]!.n;
  const entitlementOf = async (saleId: string) =>
    (await database.db.select().from(entitlements).where(eq(entitlements.externalId, saleId)))[0]!;
  const lastEvent = async () =>
    (
      await queryRows<{ event: string; outcome: string; detail: string; user_id: string | null }>(
        database.db,
        sql`SELECT event, outcome, detail, user_id FROM payment_events ORDER BY received_at DESC LIMIT 1`,
      )
    )[0]!;
  const snapshot = async () => ({
    events: await count('payment_events'),
    entitlements: await database.db.select().from(entitlements).orderBy(entitlements.id),
    users: await queryRows(database.db, sql`SELECT id, vip_until FROM users ORDER BY id`),
  });

  /** A checkout through the API, then the sale's signed postback: the member's VIP as a processor would start it. */
  async function buy(token: string, plan = 'monthly', extra: Record<string, string> = {}) {
    const started = await startCheckout(token, plan);
    expect(started.status).toBe(200);
    const url = new URL(started.body.url as string);
    const saleId = String(nextSale++);
    const sale = saleFromCheckout(url, saleId, extra);
    const answer = await sendSigned(sale);
    return { answer, saleId, sale };
  }

  it('shows visitors the plans and whether payments work, without member data', async () => {
    const body = await vipStatus();
    expect(body.paymentsAvailable).toBe(true);
    expect(body.member).toBeNull();
    expect(body.plans.map((plan) => plan.id)).toEqual(['monthly', 'quarterly', 'pass-30']);
    expect(body.plans[0]).toEqual({
      id: 'monthly',
      name: 'Monthly',
      priceAmount: '9.99',
      priceCurrency: 'USD',
      periodDays: 30,
      recurring: true,
    });
  });

  it('refuses checkout to visitors (401), for an unknown plan (400) and without a plan (400)', async () => {
    const { token } = await member('planless');
    expect((await startCheckout(undefined, 'monthly')).status).toBe(401);
    expect(await startCheckout(token, 'lifetime')).toMatchObject({
      status: 400,
      body: { message: 'There is no plan called "lifetime". Choose one of: monthly, quarterly, pass-30.', field: 'plan' },
    });
    expect(await startCheckout(token, '')).toMatchObject({ status: 400, body: { message: 'Choose a plan.' } });
    expect(await count('checkouts')).toBe(0);
  });

  it('answers a checkout with a signed FlexPay subscription URL naming the checkout', async () => {
    const { token, id } = await member('shopper');
    const response = await startCheckout(token, 'quarterly');
    expect(response.status).toBe(200);
    const url = new URL(response.body.url as string);
    expect(`${url.origin}${url.pathname}`).toBe('https://secure.verotel.com/startorder');
    const params = Object.fromEntries(url.searchParams);
    const [row] = await queryRows<{ id: string; user_id: string; plan_id: string }>(
      database.db,
      sql`SELECT id, user_id, plan_id FROM checkouts`,
    );
    expect(row).toMatchObject({ user_id: id, plan_id: 'quarterly' });
    expect(params).toMatchObject({
      shopID: SHOP_ID,
      version: '4',
      type: 'subscription',
      subscriptionType: 'recurring',
      period: 'P90D',
      priceAmount: '24.99',
      priceCurrency: 'USD',
      referenceID: row!.id,
      successURL: `${ORIGIN}/subscribe?status=success`,
      declineURL: `${ORIGIN}/subscribe?status=declined`,
    });
    const { signature, ...signed } = params;
    expect(signature).toBe(flexpaySign(SECRET, signed));
    // Starting a checkout grants nothing.
    expect(await isVip(token)).toBe(false);
    const pass = new URL((await startCheckout(token, 'pass-30')).body.url as string);
    expect(pass.searchParams.get('subscriptionType')).toBe('one-time');
  });

  it('makes the member VIP on a signed sale postback, answering OK in plain text', async () => {
    const { token, id } = await member('buyer');
    const nextCharge = flexpayDay(30);
    const { answer, saleId } = await buy(token, 'monthly', { nextChargeOn: nextCharge });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ raw: 'OK' });
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await isVip(token)).toBe(true);
    const entitlement = await entitlementOf(saleId);
    expect(entitlement).toMatchObject({ userId: id, source: 'verotel', planId: 'monthly', status: 'active', recurring: true });
    expect(entitlement.periodEnd).toEqual(endOfFlexpayDay(nextCharge));
    expect(await lastEvent()).toMatchObject({ event: 'initial', outcome: 'applied', user_id: id });
    const [completed] = await queryRows<{ completed_at: unknown }>(
      database.db,
      sql`SELECT completed_at FROM checkouts WHERE user_id = ${id}`,
    );
    expect(completed!.completed_at).not.toBeNull();

    const body = await vipStatus(token);
    expect(body.member).toMatchObject({ isVIP: true, vipUntil: endOfFlexpayDay(nextCharge).toISOString() });
    expect(body.member!.entitlements).toHaveLength(1);
    const cancelUrl = new URL(body.member!.entitlements[0]!.cancelUrl!);
    expect(`${cancelUrl.origin}${cancelUrl.pathname}`).toBe('https://secure.verotel.com/cancel-subscription');
    const { signature, ...signed } = Object.fromEntries(cancelUrl.searchParams);
    expect(signed).toEqual({ saleID: saleId, shopID: SHOP_ID, version: '4' });
    expect(signature).toBe(flexpaySign(SECRET, signed));

    // A VIP cannot start another checkout.
    expect(await startCheckout(token, 'monthly')).toMatchObject({
      status: 409,
      body: { message: expect.stringMatching(/^You already have VIP until \d+ \w+ \d{4}\./) },
    });
  });

  it('refuses a bad or missing signature with 401 and changes nothing, not even the log', async () => {
    const { token, id } = await member('forger');
    const started = await startCheckout(token, 'monthly');
    const referenceID = new URL(started.body.url as string).searchParams.get('referenceID')!;
    const before = await snapshot();
    const sale = { shopID: SHOP_ID, saleID: '666', referenceID, priceAmount: '9.99', priceCurrency: 'USD', event: 'initial' };
    const forged = await send({ ...sale, signature: flexpaySign('guessed-secret', sale) });
    expect(forged).toMatchObject({ status: 401, body: { raw: 'Invalid signature' } });
    expect((await send(sale)).status).toBe(401);
    // A correctly signed postback with one value changed afterwards.
    expect((await send({ ...signedPostback(SECRET, sale), priceAmount: '0.01' })).status).toBe(401);
    expect(await snapshot()).toEqual(before);
    expect(await isVip(token)).toBe(false);
    expect((await database.db.select().from(users).where(eq(users.id, id)))[0]!.vipUntil).toBeNull();
    // Logged to the console only, without the secret or the values sent.
    expect(warnings()).toHaveLength(3);
    expect(logs.at(LEVEL.warn)[0]).toMatchObject({ component: 'payments' });
    expect(warnings()[0]).toMatch(
      /^verotel postback refused \(401\): the signature does not match; saleID "666", keys event,priceAmount/,
    );
    expect(warnings()[1]).toMatch(/the signature is missing/);
    expect(JSON.stringify(logs.records)).not.toContain(SECRET);
  });

  it('answers a replay OK and changes nothing', async () => {
    const { token } = await member('replayer');
    const { sale, saleId } = await buy(token, 'monthly', { nextChargeOn: flexpayDay(30) });
    const rebill = {
      saleID: saleId,
      transactionID: 'r1',
      priceAmount: '9.99',
      priceCurrency: 'USD',
      event: 'rebill',
      nextChargeOn: flexpayDay(60),
    };
    expect((await sendSigned(rebill)).status).toBe(200);
    const before = await snapshot();
    expect(await sendSigned(sale)).toMatchObject({ status: 200, body: { raw: 'OK' } });
    expect(await sendSigned(rebill)).toMatchObject({ status: 200, body: { raw: 'OK' } });
    expect(await snapshot()).toEqual(before);
  });

  it('extends VIP on a rebill, keeps it after a cancel until the period ends, restarts on uncancel, and ends it on expiry', async () => {
    const { token, id } = await member('subscriber');
    const { saleId } = await buy(token, 'monthly', { nextChargeOn: flexpayDay(30) });
    const first = (await entitlementOf(saleId)).periodEnd;

    expect(
      (
        await sendSigned({
          saleID: saleId,
          transactionID: 'r2',
          priceAmount: '9.99',
          priceCurrency: 'USD',
          event: 'rebill',
          nextChargeOn: flexpayDay(60),
        })
      ).status,
    ).toBe(200);
    const renewed = await entitlementOf(saleId);
    expect(renewed.periodEnd).toEqual(endOfFlexpayDay(flexpayDay(60)));
    expect(renewed.periodEnd.getTime() - first.getTime()).toBe(30 * DAY);
    // A rebill without a date adds the period to the paid end.
    expect(
      (
        await sendSigned({
          saleID: saleId,
          transactionID: 'r3',
          priceAmount: '9.99',
          priceCurrency: 'USD',
          event: 'rebill',
          period: 'P30D',
        })
      ).status,
    ).toBe(200);
    expect((await entitlementOf(saleId)).periodEnd.getTime() - renewed.periodEnd.getTime()).toBe(30 * DAY);

    const expiresOn = flexpayDay(20);
    expect((await sendSigned({ saleID: saleId, event: 'cancel', expiresOn })).status).toBe(200);
    expect(await entitlementOf(saleId)).toMatchObject({ status: 'cancelled', periodEnd: endOfFlexpayDay(expiresOn) });
    expect(await isVip(token)).toBe(true);
    const cancelled = await vipStatus(token);
    expect(cancelled.member!.entitlements[0]).toMatchObject({
      status: 'cancelled',
      cancelUrl: null,
      periodEnd: endOfFlexpayDay(expiresOn).toISOString(),
    });
    expect(cancelled.member!.vipUntil).toBe(endOfFlexpayDay(expiresOn).toISOString());

    expect((await sendSigned({ saleID: saleId, event: 'uncancel', nextChargeOn: expiresOn })).status).toBe(200);
    expect(await entitlementOf(saleId)).toMatchObject({ status: 'active', cancelledAt: null });
    expect((await vipStatus(token)).member!.entitlements[0]!.cancelUrl).toMatch(/cancel-subscription\?saleID=/);

    expect((await sendSigned({ saleID: saleId, event: 'expiry' })).status).toBe(200);
    expect(await entitlementOf(saleId)).toMatchObject({ status: 'expired' });
    expect(await isVip(token)).toBe(false);
    // A late cancel of an expired sale needs no action, and says so.
    expect((await sendSigned({ saleID: saleId, event: 'cancel', expiresOn: flexpayDay(5) })).status).toBe(200);
    expect(await lastEvent()).toMatchObject({ event: 'cancel', outcome: 'ignored', user_id: id });
    expect(await isVip(token)).toBe(false);
  });

  it('revokes VIP at once on a chargeback and on a refund', async () => {
    for (const [name, event] of [
      ['disputer', 'chargeback'],
      ['refunded', 'credit'],
    ] as const) {
      const { token } = await member(name);
      const { saleId } = await buy(token, 'monthly', { nextChargeOn: flexpayDay(30) });
      expect(await isVip(token)).toBe(true);
      expect(
        (await sendSigned({ saleID: saleId, transactionID: `${event}-1`, priceAmount: '9.99', priceCurrency: 'USD', event }))
          .status,
      ).toBe(200);
      expect(await entitlementOf(saleId)).toMatchObject({ status: 'revoked' });
      expect(await isVip(token)).toBe(false);
      expect((await vipStatus(token)).member).toMatchObject({ isVIP: false, vipUntil: null, entitlements: [] });
      // A rebill arriving after the chargeback does not bring VIP back.
      expect(
        (await sendSigned({ saleID: saleId, transactionID: `${event}-2`, event: 'rebill', nextChargeOn: flexpayDay(60) })).status,
      ).toBe(200);
      expect(await isVip(token)).toBe(false);
    }
  });

  it('refuses signed postbacks that do not fit (unknown checkout, member gone, other price, other shop, unknown sale) with 400, logged as rejected', async () => {
    const rejected = async () =>
      queryRows<{ detail: string }>(
        database.db,
        sql`SELECT detail FROM payment_events WHERE outcome = 'rejected' ORDER BY received_at`,
      );
    const before = (await rejected()).length;
    const entitlementsBefore = await count('entitlements');

    const unknown = await sendSigned({
      saleID: '9001',
      referenceID: '3f1c1a8e-5b7d-4c1e-9a3b-2d4e6f8a0b1c',
      priceAmount: '9.99',
      priceCurrency: 'USD',
      event: 'initial',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.raw).toMatch(/^Rejected: Unknown referenceID/);
    expect(
      (
        await sendSigned({
          saleID: '9002',
          referenceID: 'not-a-uuid',
          priceAmount: '9.99',
          priceCurrency: 'USD',
          event: 'initial',
        })
      ).status,
    ).toBe(400);

    const { token: leaverToken, id: leaver } = await member('leaver');
    const referenceID = new URL((await startCheckout(leaverToken, 'monthly')).body.url as string).searchParams.get(
      'referenceID',
    )!;
    await database.db.delete(users).where(eq(users.id, leaver));
    expect(
      (await sendSigned({ saleID: '9003', referenceID, priceAmount: '9.99', priceCurrency: 'USD', event: 'initial' })).status,
    ).toBe(400);

    const { token: cheapToken, id: cheap } = await member('cheapskate');
    const cheapRef = new URL((await startCheckout(cheapToken, 'monthly')).body.url as string).searchParams.get('referenceID')!;
    const tampered = await sendSigned({
      saleID: '9004',
      referenceID: cheapRef,
      priceAmount: '0.99',
      priceCurrency: 'USD',
      event: 'initial',
    });
    expect(tampered.status).toBe(400);
    expect(tampered.body.raw).toBe("Rejected: Price 0.99 USD differs from the checkout's 9.99 USD: tampered or misconfigured");
    expect(
      (await sendSigned({ saleID: '9005', referenceID: cheapRef, priceAmount: '9.99', priceCurrency: 'EUR', event: 'initial' }))
        .status,
    ).toBe(400);
    expect(await isVip(cheapToken)).toBe(false);
    expect(await lastEvent()).toMatchObject({ outcome: 'rejected', user_id: cheap });

    const otherShop = await send(
      signedPostback(SECRET, {
        shopID: '1',
        saleID: '9006',
        referenceID: cheapRef,
        priceAmount: '9.99',
        priceCurrency: 'USD',
        event: 'initial',
      }),
    );
    expect(otherShop.status).toBe(400);
    expect((await sendSigned({ saleID: '9007', event: 'rebill', nextChargeOn: flexpayDay(30) })).status).toBe(400);

    const details = (await rejected()).slice(before).map((row) => row.detail);
    expect(details).toEqual([
      expect.stringMatching(/^Unknown referenceID "3f1c1a8e/),
      expect.stringMatching(/^Unknown referenceID "not-a-uuid"/),
      expect.stringMatching(/^Unknown referenceID .*no longer exists/),
      "Price 0.99 USD differs from the checkout's 9.99 USD: tampered or misconfigured",
      "Price 9.99 EUR differs from the checkout's 9.99 USD: tampered or misconfigured",
      'shopID "1" is not this site\'s shop',
      'Unknown saleID 9007: no sale of ours has that id',
    ]);
    expect(await count('entitlements')).toBe(entitlementsBefore);
    expect(warnings()).toHaveLength(details.length);

    // Once the cause is fixed, the processor's retry of a rejected delivery is applied (rejections do not take the dedupe key).
    const fixed = { saleID: '9008', referenceID: cheapRef, priceAmount: '9.99', priceCurrency: 'USD', event: 'initial' };
    expect((await sendSigned(fixed)).status).toBe(200);
    expect(await isVip(cheapToken)).toBe(true);
  });

  it("accepts a form POST and a one-time purchase without an event, counting the plan's days", async () => {
    const { token } = await member('passholder');
    const url = new URL((await startCheckout(token, 'pass-30')).body.url as string);
    const form = signedPostback(SECRET, {
      shopID: SHOP_ID,
      saleID: '7001',
      referenceID: url.searchParams.get('referenceID')!,
      priceAmount: '12.99',
      priceCurrency: 'USD',
      type: 'purchase',
    });
    const answer = await call(postbackPost, POSTBACK, {
      body: new URLSearchParams(form).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(answer).toMatchObject({ status: 200, body: { raw: 'OK' } });
    const entitlement = await entitlementOf('7001');
    expect(entitlement).toMatchObject({ planId: 'pass-30', recurring: false, status: 'active' });
    expect(Math.abs(entitlement.periodEnd.getTime() - (Date.now() + 30 * DAY))).toBeLessThan(60_000);
    // A pass has nothing to cancel: it ends on its own.
    expect((await vipStatus(token)).member!.entitlements[0]).toMatchObject({ recurring: false, cancelUrl: null });
    // A repeated key is not guessed at.
    expect((await call(postbackGet, `${POSTBACK}?saleID=1&saleID=2`)).status).toBe(400);
  });

  it('limits how many checkouts a member starts', async () => {
    const { token } = await member('indecisive');
    for (let i = 0; i < 10; i += 1) expect((await startCheckout(token, 'monthly')).status).toBe(200);
    expect(await startCheckout(token, 'monthly')).toMatchObject({
      status: 429,
      body: { message: 'You have started several checkouts in a few minutes. Please wait a little and try again.' },
    });
  });

  it('expires ended periods in the scheduled job, once', async () => {
    const { token, id } = await member('lapsed');
    const { saleId } = await buy(token, 'monthly', { nextChargeOn: flexpayDay(30) });
    expect((await sendSigned({ saleID: saleId, event: 'cancel', expiresOn: flexpayDay(3) })).status).toBe(200);
    // Four days on, as the job would see it.
    const later = new Date(Date.now() + 4 * DAY);
    expect((await expireEntitlements(database.db, later)).expired).toBeGreaterThanOrEqual(1);
    expect(await entitlementOf(saleId)).toMatchObject({ status: 'expired' });
    expect(await isVip(token)).toBe(false);
    const events = await queryRows<{ event: string }>(
      database.db,
      sql`SELECT event FROM payment_events WHERE entitlement_id = ${(await entitlementOf(saleId)).id} AND event = 'expire'`,
    );
    expect(events).toHaveLength(1);
    const [vip] = await queryRows<{ vip_until: unknown }>(database.db, sql`SELECT vip_until FROM users WHERE id = ${id}`);
    expect(vip!.vip_until).toBeNull();
    // Idempotent: a second run finds nothing and logs nothing.
    const eventsBefore = await count('payment_events');
    expect(await expireEntitlements(database.db, later)).toEqual({ expired: 0 });
    expect(await count('payment_events')).toBe(eventsBefore);
  });

  it('runs the expiry job on its schedule: one job per slot, each run queues the next and expires what has ended', async () => {
    await database.db.delete(jobs);
    await scheduleVipExpiry(database.db);
    await scheduleVipExpiry(database.db);
    const queued = await database.db.select().from(jobs).where(eq(jobs.type, EXPIRE_VIP_JOB));
    expect(queued).toHaveLength(1);
    expect(queued[0]!.runAt.getTime()).toBeLessThanOrEqual(Date.now());

    // An entitlement whose period ended a minute ago (a manual grant, say) is expired by the real job.
    const { token, id } = await member('timesup');
    const [ended] = await database.db
      .insert(entitlements)
      .values({ userId: id, source: 'manual', status: 'active', periodEnd: new Date(Date.now() - 60_000) })
      .returning();
    await expireVipJob(queued[0]!, heldJobContext());
    expect((await database.db.select().from(entitlements).where(eq(entitlements.id, ended!.id)))[0]!.status).toBe('expired');
    expect(await isVip(token)).toBe(false);
    expect(logs.at(LEVEL.info)).toContainEqual(expect.objectContaining({ component: 'vip', msg: '1 VIP period ended' }));
    const next = await database.db.select().from(jobs).where(eq(jobs.type, EXPIRE_VIP_JOB));
    expect(next).toHaveLength(2);
    const nextRun = Math.max(...next.map((job) => job.runAt.getTime()));
    expect(nextRun).toBeGreaterThan(Date.now());
    expect(nextRun - Date.now()).toBeLessThanOrEqual(10 * 60_000);
  });
});
