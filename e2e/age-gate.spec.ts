import type { Page } from '@playwright/test';

import { expect, test } from './fixtures';

test.describe('age gate', () => {
  test('blurs and locks the app until the visitor confirms, then remembers it for the session @mobile', async ({
    page,
    context,
  }) => {
    await page.goto('/');
    const gate = page.getByRole('dialog', { name: 'This site is for adults only' });
    await expect(gate).toBeVisible();
    const app = page.locator('.app-root');
    await expect(app).toHaveAttribute('inert', '');
    await expect(app).toHaveCSS('filter', /blur/);

    // Nothing behind the gate takes focus or clicks.
    await expect(page.getByRole('button', { name: 'Yes, I am 18 or older' })).toBeFocused();
    for (let i = 0; i < 6; i += 1) {
      await page.keyboard.press('Tab');
      const insideGate = await page.evaluate(
        () => Boolean(document.activeElement?.closest('.age-gate')) || document.activeElement === document.body,
      );
      expect(insideGate).toBe(true);
    }
    await page.mouse.click(20, 20); // where the brand link sits under the overlay
    await expect(page).toHaveURL('/');

    await page.getByRole('button', { name: 'Yes, I am 18 or older' }).click();
    await expect(gate).toBeHidden();
    await expect(app).not.toHaveAttribute('inert');
    await expect(app).not.toHaveCSS('filter', /blur/);

    // Remembered across pages and reloads in this browser session…
    await page.reload();
    await expect(page.getByRole('dialog')).toBeHidden();
    await page.goto('/subscribe');
    await expect(page.getByRole('heading', { level: 1, name: 'Edge Trainer' })).toBeVisible();
    await expect(page.getByRole('dialog')).toBeHidden();

    // …but a new browser session asks again.
    const fresh = await context.browser()!.newContext();
    const other = await fresh.newPage();
    await other.goto(page.url());
    await expect(other.getByRole('dialog', { name: 'This site is for adults only' })).toBeVisible();
    await fresh.close();
  });

  test('"No, Exit Site" leaves for a search engine and stores nothing', async ({ page }) => {
    await page.route('https://www.google.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<title>search engine</title>' }),
    );
    await page.goto('/community-standards');
    await page.getByRole('button', { name: 'No, Exit Site' }).click();
    await expect(page).toHaveURL(/^https:\/\/www\.google\.com\//);
  });

  test('is not shown before first paint when already confirmed', async ({ confirmedPage: page }) => {
    await page.goto('/privacy-policy');
    await expect(page.locator('html')).toHaveAttribute('data-age-confirmed', 'true');
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  });
});

test('the first HTML already hides the gate for a confirmed session, before any JavaScript bundle runs', async ({
  confirmedPage: page,
}) => {
  // Block the app's bundles: only the inline boot script can set the flag.
  await page.route(/\/_next\/static\/chunks\/.*\.js(\?|$)/, (route) => route.abort());
  await page.goto('/community-standards');
  await expect(page.locator('html')).toHaveAttribute('data-age-confirmed', 'true');
  await expect(page.locator('.age-gate')).toBeHidden();
});

/** The gate as a first visit meets it: focus on "Yes", the app inert; a click opens the app. */
async function confirmThroughTheGate(page: Page) {
  const confirm = page.getByRole('button', { name: 'Yes, I am 18 or older' });
  await expect(confirm).toBeFocused();
  await expect(page.locator('.app-root')).toHaveAttribute('inert', '');
  await confirm.click();
  await expect(page.getByRole('dialog', { name: 'This site is for adults only' })).toBeHidden();
  await expect(page.locator('.app-root')).not.toHaveAttribute('inert');
}

test('the gate answers before any JavaScript bundle has loaded: a slow phone can confirm as soon as it is painted', async ({
  page,
}) => {
  // Block the app's bundles: only the gate's inline scripts run.
  await page.route(/\/_next\/static\/chunks\/.*\.js(\?|$)/, (route) => route.abort());
  await page.goto('/community-standards');
  await confirmThroughTheGate(page);
  expect(await page.evaluate(() => window.sessionStorage.getItem('chrysalis.ageConfirmed'))).toBe('true');
  // The next page opens at once, still without bundles.
  await page.goto('/privacy-policy');
  await expect(page.locator('.app-root')).not.toHaveAttribute('inert');
  await expect(page.getByRole('dialog')).toBeHidden();
});

test('a 404 page, which React draws in the browser, asks and opens the same way', async ({ page }) => {
  await page.goto('/no-such-page');
  await confirmThroughTheGate(page);
  await expect(page.getByRole('heading', { level: 1, name: 'This page doesn’t exist' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page.locator('.app-root')).not.toHaveAttribute('inert');
});
