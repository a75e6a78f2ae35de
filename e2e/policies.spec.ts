import AxeBuilder from '@axe-core/playwright';

import { STORAGE_INVENTORY } from '../lib/storage-inventory';

import { expect, POLICY_PAGES, test } from './fixtures';

test.describe('policy pages', () => {
  for (const [path, title] of POLICY_PAGES) {
    test(`${path} is a complete, server-rendered page`, async ({ request }) => {
      const response = await request.get(path);
      expect(response.status()).toBe(200);
      const html = await response.text();
      expect(html).toContain(`<h1>${title.replace('&', '&amp;')}</h1>`);
      const words = html
        .replace(/<script[\s\S]*?<\/script>/g, '')
        .replace(/<[^>]+>/g, ' ')
        .split(/\s+/).length;
      // The 2257 statement is a short legal notice, not a policy to read through.
      expect(words).toBeGreaterThan(path === '/2257' ? 250 : 600);
      // Unconfigured operator details show as placeholders that say what to set.
      if (path === '/copyright-policy') expect(html).toContain('set DMCA_AGENT_NAME');
      if (path === '/privacy-policy') expect(html).toContain('set OPERATOR_NAME');
      if (path === '/2257') expect(html).toContain('set RECORDS_CUSTODIAN_NAME');
    });
  }

  test('the cookie list matches every cookie and storage key the site sets', async ({ confirmedPage: page, context }) => {
    await page.goto('/cookie-policy');
    const table = page.locator('table').first();
    for (const entry of STORAGE_INVENTORY) await expect(table).toContainText(entry.name);

    // Browse around as a visitor, then compare what the browser holds with the list.
    await page.goto('/');
    await page.goto('/category/Beta');
    await page.goto('/search?q=test');
    const known = (name: string) =>
      STORAGE_INVENTORY.some((entry) => (entry.isPrefix ? name.startsWith(entry.name) : name === entry.name));
    const cookies = (await context.cookies()).map((cookie) => cookie.name);
    const stored = await page.evaluate(() => [...Object.keys(window.localStorage), ...Object.keys(window.sessionStorage)]);
    for (const name of [...cookies, ...stored]) expect(known(name), `${name} is not in the cookie policy`).toBe(true);
  });
});

test.describe('accessibility (axe, WCAG 2.2 AA)', () => {
  for (const path of ['/', '/community-standards', '/cookie-policy']) {
    test(`${path} has no serious or critical violations`, async ({ confirmedPage: page }) => {
      await page.goto(path);
      await expect(page.locator('.app-root')).not.toHaveAttribute('inert');
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    });
  }

  test('the age gate itself has no serious violations', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('dialog')).toBeVisible();
    const results = await new AxeBuilder({ page }).include('.age-gate').withTags(['wcag2a', 'wcag2aa']).analyze();
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  });
});
