import { test as base, expect, type Page } from '@playwright/test';

/** Pages that have already passed the age gate in this browser session. */
export const test = base.extend<{ confirmedPage: Page }>({
  confirmedPage: async ({ page }, provide) => {
    await page.addInitScript(() => window.sessionStorage.setItem('chrysalis.ageConfirmed', 'true'));
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
] as const;

/** Nothing on the page makes it scroll sideways at the current width. */
export async function expectNoSidewaysScroll(page: Page, context = '') {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `sideways overflow ${context}`).toBeLessThanOrEqual(0);
}
