import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';

import { flexpayDay, flexpaySign, saleFromCheckout, signedPostback } from '../test/helpers/flexpay';

import { logInThroughForm, verifiedMember } from './api';
import { E2E_VEROTEL, ORIGIN } from '../scripts/lib/e2e-env';
import { expect, expectNoSidewaysScroll, reviewShot, test } from './fixtures';

const VEROTEL = 'https://secure.verotel.com';
let nextSale = Date.now() % 1_000_000_000;

/** No serious or critical WCAG problems in the page's main content. */
async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page })
    .include('main')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** There is no network here: Verotel's pages are answered by the test, which records where the browser went. */
async function fakeVerotel(page: Page): Promise<URL[]> {
  const visited: URL[] = [];
  await page.route(`${VEROTEL}/**`, async (route) => {
    visited.push(new URL(route.request().url()));
    await route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>Verotel test checkout</title><h1>Verotel test checkout</h1>',
    });
  });
  return visited;
}

/** Verotel's server telling ours about a sale, signed with the shop's key. */
async function postSale(request: APIRequestContext, checkout: URL, saleId: string) {
  const params = signedPostback(E2E_VEROTEL.signatureKey, {
    shopID: E2E_VEROTEL.shopId,
    ...saleFromCheckout(checkout, saleId, { nextChargeOn: flexpayDay(30) }),
  });
  return request.get(`/api/payments/verotel/postback?${new URLSearchParams(params)}`);
}

const plansList = (page: Page) => page.getByRole('list', { name: 'VIP plans' });

test.describe('/subscribe', () => {
  test('a visitor sees what VIP gives, the plans and prices, and is asked to sign up or log in @mobile', async ({
    confirmedPage: page,
    request,
  }) => {
    // What crawlers get: the plans, prices and the Product/Offer JSON-LD in the server HTML, nothing about any visitor.
    const html = await (await request.get('/subscribe')).text();
    expect(html).toContain('$9.99');
    expect(html).not.toContain('Join Edge Trainer');
    const offer = JSON.parse(/<script type="application\/ld\+json" id="vip-offer-data">(.*?)<\/script>/s.exec(html)![1]!);
    expect(offer).toMatchObject({ '@type': 'Product', name: 'Edge Trainer VIP', url: `${ORIGIN}/subscribe` });
    expect(
      offer.offers.map((o: { name: string; price: string; priceCurrency: string }) => [o.name, o.price, o.priceCurrency]),
    ).toEqual([
      ['Monthly', '9.99', 'USD'],
      ['Quarterly', '24.99', 'USD'],
      ['30-day pass', '12.99', 'USD'],
    ]);

    await page.goto('/subscribe');
    await expect(page.getByRole('heading', { level: 1, name: 'Edge Trainer' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'A new task every day' })).toBeVisible();
    const plans = plansList(page);
    await expect(plans.getByRole('listitem')).toHaveCount(3);
    await expect(plans.getByRole('listitem').first()).toContainText('$9.99 every 30 days');
    await expect(plans.getByRole('listitem').last()).toContainText('$12.99 once, for 30 days');
    const join = page.getByTestId('vip-join');
    await expect(join.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/register?next=%2Fsubscribe');
    await expect(join.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login?next=%2Fsubscribe');
    await expect(plans.getByRole('link', { name: 'Log in to choose' })).toHaveCount(3);
    await expect(page.getByRole('button', { name: /^Choose / })).toHaveCount(0);
    await expectNoSidewaysScroll(page, 'visitor');
    await expectAccessible(page);
    await reviewShot(page, 'subscribe-visitor', { fullPage: true });

    await join.getByRole('link', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/login\?next=%2Fsubscribe$/);
  });

  test('a member chooses a plan, pays at Verotel, and is VIP once the signed postback arrives @mobile', async ({
    confirmedPage: page,
    request,
  }) => {
    test.setTimeout(90_000);
    const member = await verifiedMember(request, 'vipbuyer');
    const visited = await fakeVerotel(page);
    await logInThroughForm(page, member.email, member.password, '/subscribe');

    const plans = plansList(page);
    await expect(plans.getByRole('button', { name: 'Choose Monthly' })).toBeVisible();
    await expect(plans.getByRole('button', { name: /^Choose / })).toHaveCount(3);
    await expect(page.getByTestId('vip-join')).toHaveCount(0);
    await expectNoSidewaysScroll(page, 'member');
    await reviewShot(page, 'subscribe-member', { fullPage: true });

    await plans.getByRole('button', { name: 'Choose Monthly' }).click();
    await expect(page.getByRole('heading', { name: 'Verotel test checkout' })).toBeVisible();
    const checkout = visited.at(-1)!;
    expect(`${checkout.origin}${checkout.pathname}`).toBe(`${VEROTEL}/startorder`);
    const { signature, ...signed } = Object.fromEntries(checkout.searchParams);
    expect(signed).toMatchObject({
      shopID: E2E_VEROTEL.shopId,
      version: '4',
      type: 'subscription',
      subscriptionType: 'recurring',
      period: 'P30D',
      priceAmount: '9.99',
      priceCurrency: 'USD',
      successURL: `${ORIGIN}/subscribe?status=success`,
      declineURL: `${ORIGIN}/subscribe?status=declined`,
    });
    expect(signed.referenceID).toMatch(/^[0-9a-f-]{36}$/);
    expect(signature).toBe(flexpaySign(E2E_VEROTEL.signatureKey, signed));

    // Verotel sends the member back before (or after) it tells our server: the page waits for the postback.
    await page.goto('/subscribe?status=success');
    const notice = page.getByRole('status').filter({ hasText: 'Thank you!' });
    await expect(notice).toContainText('Your VIP starts as soon as Verotel confirms the payment');
    await expect(page.getByTestId('vip-membership')).toHaveCount(0);

    // A forged postback changes nothing.
    const saleId = String(nextSale++);
    const forged = await request.get(
      `/api/payments/verotel/postback?shopID=${E2E_VEROTEL.shopId}&saleID=${saleId}&event=initial&signature=${'0'.repeat(64)}`,
    );
    expect(forged.status()).toBe(401);

    const answer = await postSale(request, checkout, saleId);
    expect(answer.status()).toBe(200);
    expect(await answer.text()).toBe('OK');

    await expect(notice).toContainText('Your payment is confirmed and your VIP has started.', { timeout: 15_000 });
    const membership = page.getByTestId('vip-membership');
    await expect(membership.getByRole('heading', { name: 'You are an Edge Trainer VIP' })).toBeVisible();
    await expect(membership).toContainText(/Monthly subscription: renews on \d{1,2} \w+ \d{4}\./);
    const cancel = membership.getByRole('link', { name: 'Cancel subscription' });
    const cancelUrl = new URL((await cancel.getAttribute('href'))!);
    expect(`${cancelUrl.origin}${cancelUrl.pathname}`).toBe(`${VEROTEL}/cancel-subscription`);
    const { signature: cancelSignature, ...cancelSigned } = Object.fromEntries(cancelUrl.searchParams);
    expect(cancelSigned).toEqual({ saleID: saleId, shopID: E2E_VEROTEL.shopId, version: '4' });
    expect(cancelSignature).toBe(flexpaySign(E2E_VEROTEL.signatureKey, cancelSigned));
    await expect(plansList(page).locator('.vip-plan-current')).toContainText('Your plan');
    await expect(page.getByRole('button', { name: /^Choose / })).toHaveCount(0);
    await expectNoSidewaysScroll(page, 'VIP');
    await expectAccessible(page);
    await reviewShot(page, 'subscribe-vip', { fullPage: true });

    // The session knows too: a reload shows the VIP state straight away, and the API says isVIP.
    const me = await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${member.token}` } });
    expect(((await me.json()) as { user: { isVIP: boolean } }).user.isVIP).toBe(true);

    // Cancelling: Verotel's cancel page, then its postback; VIP stays until the paid period ends.
    const expiresOn = flexpayDay(30);
    const cancelled = await request.get(
      `/api/payments/verotel/postback?${new URLSearchParams(signedPostback(E2E_VEROTEL.signatureKey, { shopID: E2E_VEROTEL.shopId, saleID: saleId, event: 'cancel', expiresOn }))}`,
    );
    expect(cancelled.status()).toBe(200);
    await page.goto('/subscribe');
    await expect(page.getByTestId('vip-membership')).toContainText(
      /Monthly subscription, cancelled: it will not renew, and your VIP lasts until \d{1,2} \w+ \d{4}\./,
    );
    await expect(page.getByRole('link', { name: 'Cancel subscription' })).toHaveCount(0);
  });

  test('a declined payment says so and offers the plans again', async ({ confirmedPage: page, request }) => {
    const member = await verifiedMember(request, 'declined');
    await logInThroughForm(page, member.email, member.password, '/subscribe?status=declined');
    await expect(page.getByRole('main').getByRole('alert')).toContainText(
      'Your payment did not go through, and you have not been charged.',
    );
    await expect(plansList(page).getByRole('button', { name: /^Choose / })).toHaveCount(3);
  });
});
