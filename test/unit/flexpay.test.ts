import { createHash } from 'node:crypto';

import { flexpayCancelUrl, flexpaySignature, flexpayStartOrderUrl, verifyFlexpaySignature } from '@/lib/server/payments/flexpay';
import { parseFlexpayDate, periodToDays, verotelProcessor } from '@/lib/server/payments/verotel';
import { billingLabel, formatPrice, formatVipEndDate } from '@/lib/format/vip';

const SECRET = 'test-secret-key';
const ACCOUNT = { shopId: '12345', signatureKey: SECRET, baseUrl: 'https://secure.verotel.com' };
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The documented algorithm, written out by hand: lowercase hex SHA-256 of "secret:key=value:…", keys sorted. */
describe('FlexPay signature', () => {
  it('is the SHA-256 of the secret and the sorted pairs joined by colons', () => {
    const params = {
      type: 'purchase',
      version: '4',
      shopID: '12345',
      referenceID: 'ref-1',
      priceCurrency: 'USD',
      priceAmount: '9.99',
      description: 'Chrysalis VIP',
    };
    const literal =
      'test-secret-key:description=Chrysalis VIP:priceAmount=9.99:priceCurrency=USD:referenceID=ref-1:shopID=12345:type=purchase:version=4';
    expect(flexpaySignature(SECRET, params)).toBe(sha256(literal));
    // The same vector computed outside the code (printf '%s' … | sha256sum), so the test cannot agree with a wrong hash by construction.
    expect(flexpaySignature(SECRET, params)).toBe('14b7bd3151d84ef2199be195e1c27032c4e097239774b69529e8c9f325bd73d8');
  });

  it('sorts keys in byte order (upper case before lower case), not by locale', () => {
    expect(flexpaySignature('s', { b: '1', a: '3', B: '2' })).toBe(sha256('s:B=2:a=3:b=1'));
  });

  it('changes with any value and with the secret', () => {
    const base = flexpaySignature(SECRET, { priceAmount: '9.99' });
    expect(flexpaySignature(SECRET, { priceAmount: '0.99' })).not.toBe(base);
    expect(flexpaySignature('other-secret', { priceAmount: '9.99' })).not.toBe(base);
  });
});

describe('FlexPay URLs', () => {
  it('builds a signed subscription startorder URL, signing only the signed keys and dropping empty values', () => {
    const url = new URL(
      flexpayStartOrderUrl(ACCOUNT, {
        referenceID: '5d0c7f6e-0000-4000-8000-000000000001',
        description: 'VIP: Monthly',
        priceAmount: '9.99',
        priceCurrency: 'USD',
        successURL: 'https://site.example/subscribe?status=success',
        declineURL: 'https://site.example/subscribe?status=declined',
        subscription: { subscriptionType: 'recurring', periodDays: 30 },
        extra: { custom2: '', custom3: null, unsignedNote: 'travels along' },
      }),
    );
    expect(`${url.origin}${url.pathname}`).toBe('https://secure.verotel.com/startorder');
    const query = Object.fromEntries(url.searchParams);
    expect(query).toEqual({
      declineURL: 'https://site.example/subscribe?status=declined',
      description: 'VIP: Monthly',
      period: 'P30D',
      priceAmount: '9.99',
      priceCurrency: 'USD',
      referenceID: '5d0c7f6e-0000-4000-8000-000000000001',
      shopID: '12345',
      subscriptionType: 'recurring',
      successURL: 'https://site.example/subscribe?status=success',
      type: 'subscription',
      unsignedNote: 'travels along',
      version: '4',
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const literal =
      'test-secret-key:declineURL=https://site.example/subscribe?status=declined:description=VIP: Monthly:period=P30D:priceAmount=9.99' +
      ':priceCurrency=USD:referenceID=5d0c7f6e-0000-4000-8000-000000000001:shopID=12345:subscriptionType=recurring' +
      ':successURL=https://site.example/subscribe?status=success:type=subscription:version=4';
    expect(query.signature).toBe(sha256(literal));
    // The signature is the last parameter, the rest sorted.
    expect([...url.searchParams.keys()].at(-1)).toBe('signature');
  });

  it('builds a one-time purchase URL with type=purchase and no period', () => {
    const url = new URL(
      flexpayStartOrderUrl(ACCOUNT, {
        referenceID: 'r',
        description: 'd',
        priceAmount: '1.00',
        priceCurrency: 'EUR',
        successURL: 's',
        declineURL: 'x',
      }),
    );
    expect(url.searchParams.get('type')).toBe('purchase');
    expect(url.searchParams.has('period')).toBe(false);
    expect(url.searchParams.has('subscriptionType')).toBe(false);
  });

  it('builds a signed cancel-subscription URL', () => {
    const url = flexpayCancelUrl(ACCOUNT, '987654');
    expect(url).toBe(
      `https://secure.verotel.com/cancel-subscription?saleID=987654&shopID=12345&version=4&signature=${sha256('test-secret-key:saleID=987654:shopID=12345:version=4')}`,
    );
  });
});

describe('FlexPay postback verification', () => {
  const postback = {
    shopID: '12345',
    saleID: '777',
    referenceID: 'ref',
    priceAmount: '9.99',
    priceCurrency: 'USD',
    event: 'initial',
    custom1: '',
  };
  const signed = {
    ...postback,
    signature: sha256(
      'test-secret-key:custom1=:event=initial:priceAmount=9.99:priceCurrency=USD:referenceID=ref:saleID=777:shopID=12345',
    ),
  };

  it('accepts a postback signed over every received parameter, empty ones included', () => {
    expect(verifyFlexpaySignature(SECRET, signed)).toBe(true);
    expect(verifyFlexpaySignature(SECRET, { ...signed, signature: signed.signature.toUpperCase() })).toBe(true);
  });

  it('refuses a tampered value, an added parameter, a missing or malformed signature, and another key', () => {
    expect(verifyFlexpaySignature(SECRET, { ...signed, priceAmount: '0.99' })).toBe(false);
    expect(verifyFlexpaySignature(SECRET, { ...signed, custom2: 'added' })).toBe(false);
    expect(verifyFlexpaySignature(SECRET, postback)).toBe(false);
    expect(verifyFlexpaySignature(SECRET, { ...signed, signature: 'abc' })).toBe(false);
    expect(verifyFlexpaySignature('another-secret', signed)).toBe(false);
  });
});

describe('the Verotel adapter reading postbacks', () => {
  const processor = verotelProcessor(ACCOUNT);
  const sign = (params: Record<string, string>) => ({ ...params, signature: flexpaySignature(SECRET, params) });

  it('reads a sale with its next charge date and period', () => {
    const reading = processor.readPostback(
      sign({
        shopID: '12345',
        saleID: '1',
        referenceID: 'ref',
        transactionID: 't1',
        priceAmount: '9.99',
        priceCurrency: 'usd',
        event: 'initial',
        nextChargeOn: '2026-12-24',
        period: 'P30D',
      }),
    );
    expect(reading).toMatchObject({
      ok: true,
      event: {
        kind: 'sale',
        name: 'initial',
        saleId: '1',
        referenceId: 'ref',
        transactionId: 't1',
        priceCurrency: 'USD',
        periodDays: 30,
        paidUntil: new Date('2026-12-25T00:00:00Z'),
      },
    });
  });

  it('treats a purchase without an event as the sale, and names refunds and chargebacks', () => {
    const purchase = processor.readPostback(
      sign({ shopID: '12345', saleID: '2', type: 'purchase', referenceID: 'r', priceAmount: '1.00', priceCurrency: 'USD' }),
    );
    expect(purchase.ok && purchase.event.kind).toBe('sale');
    const credit = processor.readPostback(sign({ shopID: '12345', saleID: '2', event: 'credit' }));
    expect(credit.ok && credit.event.kind).toBe('refund');
    const other = processor.readPostback(sign({ shopID: '12345', event: 'upgrade' }));
    expect(other.ok && other.event.kind).toBe('other');
  });

  it('takes expiresOn as the end of a cancelled subscription', () => {
    const cancel = processor.readPostback(
      sign({ shopID: '12345', saleID: '3', event: 'cancel', expiresOn: '2027-01-10', nextChargeOn: '2027-02-10' }),
    );
    expect(cancel.ok && cancel.event.paidUntil).toEqual(new Date('2027-01-11T00:00:00Z'));
  });

  it('answers 401 for a bad signature and 400 for a signed postback of another shop or with a bad date', () => {
    expect(processor.readPostback({ shopID: '12345', saleID: '1', event: 'rebill', signature: '0'.repeat(64) })).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(processor.readPostback({ shopID: '12345', saleID: '1', event: 'rebill' })).toMatchObject({
      ok: false,
      status: 401,
      reason: 'the signature is missing',
    });
    expect(processor.readPostback(sign({ shopID: '99999', saleID: '1', event: 'rebill' }))).toMatchObject({
      ok: false,
      status: 400,
      reason: expect.stringContaining('shopID "99999"'),
    });
    expect(processor.readPostback(sign({ shopID: '12345', saleID: '1', event: 'rebill', nextChargeOn: 'soon' }))).toMatchObject({
      ok: false,
      status: 400,
    });
    expect(processor.readPostback(sign({ shopID: '12345', event: 'rebill' }))).toMatchObject({
      ok: false,
      status: 400,
      reason: 'saleID is missing',
    });
  });

  it('gives identical deliveries one dedupe key, and any difference another', () => {
    const params = {
      shopID: '12345',
      saleID: '4',
      event: 'rebill',
      transactionID: '9',
      priceAmount: '9.99',
      priceCurrency: 'USD',
    };
    const key = (p: Record<string, string>) => {
      const reading = processor.readPostback(sign(p));
      return reading.ok ? reading.event.dedupeKey : null;
    };
    expect(key(params)).toBe(key({ ...params }));
    expect(key(params)).toMatch(/^verotel:4:rebill:9:[0-9a-f]{64}$/);
    expect(key({ ...params, transactionID: '10' })).not.toBe(key(params));
    expect(key({ ...params, custom1: 'x' })).not.toBe(key(params));
  });

  it('reads FlexPay dates and periods', () => {
    expect(parseFlexpayDate('2026-02-28')).toEqual(new Date('2026-03-01T00:00:00Z'));
    expect(parseFlexpayDate('2026-02-31')).toBeNull();
    expect(parseFlexpayDate('2026-12-24T10:00:00Z')).toEqual(new Date('2026-12-24T10:00:00Z'));
    expect(parseFlexpayDate('24.12.2026')).toBeNull();
    expect(parseFlexpayDate(undefined)).toBeUndefined();
    expect([
      periodToDays('P30D'),
      periodToDays('P1M'),
      periodToDays('P2W'),
      periodToDays('P1Y'),
      periodToDays('30 days'),
    ]).toEqual([30, 30, 14, 365, null]);
  });
});

describe('VIP wording', () => {
  it('formats prices, billing and the last day of VIP', () => {
    expect(formatPrice('9.99', 'USD')).toBe('$9.99');
    expect(formatPrice('24.99', 'EUR')).toBe('€24.99');
    expect(billingLabel({ periodDays: 30, recurring: true })).toBe('every 30 days');
    expect(billingLabel({ periodDays: 1, recurring: false })).toBe('once, for 1 day');
    // Paid through 24 December: VIP ends at the following UTC midnight, and the last day shown is the 24th.
    expect(formatVipEndDate('2026-12-25T00:00:00.000Z')).toBe('24 December 2026');
    expect(formatVipEndDate('2026-12-23T14:35:00.000Z')).toBe('23 December 2026');
  });
});
