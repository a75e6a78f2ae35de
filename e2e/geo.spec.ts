import { expect, test } from './fixtures';

// The e2e server runs with GEO_BLOCKED_REGIONS=GB,US-TX (playwright.config.ts).
test.describe('regional blocking', () => {
  test('a blocked country gets the 403 Access Denied page, for pages, cached pages and the API', async ({ request }) => {
    for (const path of ['/', '/community-standards', '/search?q=x', '/api/videos', '/robots.txt']) {
      const response = await request.get(path, { headers: { 'cf-ipcountry': 'GB' } });
      expect(response.status(), path).toBe(403);
      expect(response.headers()['content-type']).toMatch(/text\/html/);
      const html = await response.text();
      expect(html).toContain('<h1>Access Denied</h1>');
      expect(html).toContain('Your IP address appears to originate from GB.');
      expect(html).toMatch(/cost of the age verification services/);
      expect(html).not.toContain('Welcome to Chrysalis');
    }
  });

  test('machines are never blocked: health checks and the payment processor’s postbacks get through', async ({ request }) => {
    expect((await request.get('/api/health', { headers: { 'cf-ipcountry': 'GB' } })).status()).toBe(200);
    // Reaches the postback handler, which refuses the missing signature itself (401), not the regional 403 page.
    const postback = await request.get('/api/payments/verotel/postback?event=initial', { headers: { 'cf-ipcountry': 'GB' } });
    expect(postback.status()).toBe(401);
    expect(postback.headers()['content-type']).not.toMatch(/text\/html/);
  });

  test('subdivisions are blocked on their own: US-TX is, US-CA is not', async ({ request }) => {
    const texas = await request.get('/', { headers: { 'cf-ipcountry': 'US', 'cf-region-code': 'TX' } });
    expect(texas.status()).toBe(403);
    const california = await request.get('/', { headers: { 'cf-ipcountry': 'US', 'cf-region-code': 'CA' } });
    expect(california.status()).toBe(200);
    expect(california.headers()['vary']).toMatch(/cf-ipcountry, cf-region-code/);
  });

  test('an API call refused for the region opens the full-screen modal and locks scrolling', async ({ confirmedPage: page }) => {
    await page.goto('/login');
    // From here on the visitor's API calls look as if they came from a blocked country.
    await page.route('**/api/**', async (route) =>
      route.continue({ headers: { ...route.request().headers(), 'cf-ipcountry': 'GB' } }),
    );
    await page.getByLabel('Email').fill('someone@example.org');
    await page.getByLabel('Password').fill('whatever-123');
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    const modal = page.getByRole('alertdialog', { name: 'Access Denied' });
    await expect(modal).toBeVisible();
    await expect(modal).toContainText('Your IP address appears to originate from GB.');
    await expect(modal).toContainText('age verification');
    expect(await page.evaluate(() => document.body.style.overflow)).toBe('hidden');
    // The error still reached the form, which has no server message to show (the answer is HTML): the spec's fallback.
    await expect(page.getByRole('main').getByRole('alert')).toHaveText('Failed to login');
  });
});
