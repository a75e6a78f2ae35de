import { mkdirSync } from 'node:fs';
import path from 'node:path';

import { test as base, expect, type Locator, type Page } from '@playwright/test';

/** Pages that have already passed the age gate in this browser session. */
export const test = base.extend<{ confirmedPage: Page }>({
  confirmedPage: async ({ page }, provide, testInfo) => {
    await page.addInitScript(() => window.sessionStorage.setItem('chrysalis.ageConfirmed', 'true'));
    // Each test is a different visitor to the per-address rate limits (sign-ups, logins), as real users are.
    const n =
      testInfo.workerIndex * 10_000 + testInfo.repeatEachIndex * 1_000 + testInfo.retry * 100 + (hashTitle(testInfo.title) % 100);
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` });
    await provide(page);
  },
});

export { expect };

export const POLICY_PAGES = [
  ['/community-standards', 'Community Standards'],
  ['/privacy-policy', 'Privacy Policy'],
  ['/terms-of-use', 'Terms of Use'],
  ['/copyright-policy', 'Copyright Policy'],
  ['/cookie-policy', 'Cookie Policy'],
  ['/lgbtq-support', 'LGBTQ+ Support'],
  ['/2257', '18 U.S.C. 2257 Record-Keeping Requirements Compliance Statement'],
] as const;

/** Nothing on the page makes it scroll sideways at the current width. */
export async function expectNoSidewaysScroll(page: Page, context = '') {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `sideways overflow ${context}`).toBeLessThanOrEqual(0);
}

function hashTitle(title: string): number {
  let hash = 0;
  for (const char of title) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash;
}

/**
 * The moderation queue is oldest first, 10 at a time, and other tests' pending
 * uploads (waiting for verification or records) can put a video on a later page:
 * press "Load more" until the target shows.
 */
export async function showInModerationQueue(page: Page, target: Locator) {
  const loadMore = page.getByRole('button', { name: 'Load more' });
  await expect(async () => {
    if ((await target.count()) === 0 && (await loadMore.isVisible())) await loadMore.click();
    await expect(target.first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
}

/**
 * A screenshot for people to look at (what a screen looks like at this width), not an assertion: taken only when
 * E2E_SCREENSHOTS names a folder, into `<folder>/<spec>/<name>-<width>.png`. A run without it (CI) takes none, as
 * each capture costs the browser an encode, a full page many (README, `E2E_SCREENSHOTS`). `widths` resizes a page to
 * each in turn and back, for a screen a test reaches once.
 */
export async function reviewShot(
  target: Page | Locator,
  name: string,
  options: { fullPage?: boolean; widths?: number[] } = {},
): Promise<void> {
  const folder = process.env.E2E_SCREENSHOTS;
  if (!folder) return;
  const page = 'goto' in target ? target : target.page();
  const dir = path.join(folder, path.basename(base.info().file).replace(/\.(spec|smoke)\.ts$/, ''));
  mkdirSync(dir, { recursive: true });
  const take = () => {
    const file = path.join(dir, `${name}-${page.viewportSize()?.width ?? 'auto'}.png`);
    // fullPage is the page's option only: a locator's capture is its element's box.
    return target === page
      ? page.screenshot({ path: file, fullPage: options.fullPage ?? false })
      : target.screenshot({ path: file });
  };
  if (!options.widths) return void (await take());
  const size = page.viewportSize();
  for (const width of options.widths) {
    await page.setViewportSize({ width, height: width < 1024 ? 740 : 800 });
    await take();
  }
  if (size) await page.setViewportSize(size);
}
