import { COMPILE_HINT, MIN_HINTED_CHUNK_BYTES } from '../lib/build/compile-hints';
import { moduleScriptSources } from '../scripts/lib/first-load-js';
import { expect, expectNoSidewaysScroll, test } from './fixtures';

test.describe('navbar and footer (desktop)', () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) <= 1023, 'desktop layout');

  test('has Home, the Categories dropdown, Edge Trainer and the logged-out links', async ({ confirmedPage: page }) => {
    await page.goto('/community-standards');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute('href', '/');
    await expect(nav.getByRole('link', { name: 'Edge Trainer' })).toHaveAttribute('href', '/subscribe');
    await expect(nav.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/register');
    await expect(nav.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');

    const categories = nav.getByRole('button', { name: 'Categories' });
    // popovertarget tells assistive technology whether the list is open (no aria-expanded: the HTML standard forbids it there).
    const list = page.locator('#nav-categories');
    await expect(categories).not.toHaveAttribute('aria-expanded');
    await expect(list).toBeHidden();
    await categories.click();
    await expect(list).toBeVisible();
    for (const name of ['Sissy', 'Beta', 'Censor']) {
      await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('href', `/category/${name}`);
    }
    // Closes on Escape (focus back on the button) and on an outside click.
    await page.keyboard.press('Escape');
    await expect(list).toBeHidden();
    await expect(categories).toBeFocused();
    await categories.click();
    await page.locator('main').click({ position: { x: 5, y: 5 } });
    await expect(list).toBeHidden();

    // Keyboard: open with Enter, Tab into the menu, follow a link.
    await categories.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(page.locator(':focus')).toHaveText('Beta');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/category/Beta');
    await expect(page.getByRole('heading', { level: 1, name: 'Beta' })).toBeVisible();
  });

  test('search submits the trimmed, encoded query and ignores blank input', async ({ confirmedPage: page }) => {
    await page.goto('/');
    const box = page.getByRole('navigation', { name: 'Main' }).getByRole('searchbox', { name: 'Search videos' });
    await box.fill('    ');
    await box.press('Enter');
    await page.waitForTimeout(300);
    await expect(page).toHaveURL('/');

    await box.fill('  sissy & "beta" <b>  ');
    await box.press('Enter');
    await expect(page).toHaveURL(`/search?q=${encodeURIComponent('sissy & "beta" <b>')}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Results for “sissy & "beta" <b>”');
  });

  test('footer links to the policies', async ({ confirmedPage: page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    for (const [name, href] of [
      ['Community Standards', '/community-standards'],
      ['Privacy Policy', '/privacy-policy'],
      ['Cookie Policy', '/cookie-policy'],
      ['LGBTQ+ Support', '/lgbtq-support'],
    ]) {
      await expect(footer.getByRole('link', { name: name!, exact: true })).toHaveAttribute('href', href!);
    }
    await footer.getByRole('link', { name: 'Cookie Policy' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Cookie Policy' })).toBeVisible();
  });

  test('every route change scrolls to top', async ({ confirmedPage: page }) => {
    await page.goto('/privacy-policy');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    await page.getByRole('contentinfo').getByRole('link', { name: 'LGBTQ+ Support' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'LGBTQ+ Support' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});

test.describe('mobile menu', () => {
  test('collapses the navbar at 375 px and opens a full menu @mobile-only', async ({ confirmedPage: page }) => {
    await page.goto('/');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Edge Trainer' })).toBeHidden();
    const toggle = page.getByRole('button', { name: 'Menu' });
    await toggle.click();
    await expect(page.getByRole('button', { name: 'Close' })).toBeVisible();
    const menu = page.locator('#mobile-menu');
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Edge Trainer' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Log in' })).toBeVisible();
    await menu.getByRole('button', { name: 'Categories' }).click();
    await menu.getByRole('link', { name: 'Censor' }).click();
    await expect(page).toHaveURL('/category/Censor');
    await expect(menu).toBeHidden();

    // Search from the mobile menu.
    await page.getByRole('button', { name: 'Menu' }).click();
    await menu.getByRole('searchbox', { name: 'Search videos' }).fill('🦋 exploration');
    await menu.getByRole('searchbox', { name: 'Search videos' }).press('Enter');
    await expect(page).toHaveURL(`/search?q=${encodeURIComponent('🦋 exploration')}`);

    // Nothing overflows sideways at 375 px.
    await expectNoSidewaysScroll(page);
  });
});

test.describe('pages', () => {
  test('category names are canonicalised and unknown categories are a 404', async ({ confirmedPage: page }) => {
    const lower = await page.goto('/category/sissy');
    expect(lower?.url()).toMatch(/\/category\/Sissy$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Sissy' })).toBeVisible();
    const unknown = await page.goto('/category/Alpha');
    expect(unknown?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'This page doesn’t exist' })).toBeVisible();
  });

  test('unknown routes get the 404 page inside the shell, with status 404', async ({ confirmedPage: page }) => {
    for (const path of ['/no-such-page', '/deeply/nested/missing', '/video/does-not-exist']) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1, name: 'This page doesn’t exist' })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeAttached();
      await expect(page.getByRole('contentinfo')).toBeVisible();
      await expect(page).toHaveTitle('Page not found | Chrysalis');
    }
  });

  test('the scripts a page starts with (8 KB and up) ask V8 to compile them off the main thread (decision 034)', async ({
    request,
  }) => {
    for (const path of ['/', '/category/Sissy', '/privacy-policy', '/login', '/no-such-page']) {
      const sources = moduleScriptSources(await (await request.get(path)).text());
      const big: string[] = [];
      for (const source of sources) {
        const code = await (await request.get(source)).text();
        if (Buffer.byteLength(code) < MIN_HINTED_CHUNK_BYTES) continue;
        big.push(source);
        expect(code.startsWith(COMPILE_HINT), `${path}: ${source}`).toBe(true);
      }
      expect(big.length, path).toBeGreaterThan(3);
    }
  });

  for (const [label, query] of [
    ['quotes and tags', `"><script>window.__pwned=1</script>'`],
    ['emoji', '🦋🏳️‍🌈 transformation ✨'],
    ['2,000 characters', 'x'.repeat(2000)],
  ] as const) {
    test(`search renders ${label} safely`, async ({ confirmedPage: page }) => {
      const response = await page.goto(`/search?q=${encodeURIComponent(query)}`);
      expect(response?.status()).toBe(200);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      const heading = page.getByRole('heading', { level: 1 });
      await expect(heading).toContainText(query.slice(0, 100));
      await expectNoSidewaysScroll(page);
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
    });
  }
});
