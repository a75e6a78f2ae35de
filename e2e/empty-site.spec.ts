import { verifiedMember } from './api';
import { expect, test } from './fixtures';

// Runs first, on the fresh e2e server (playwright.config.ts: the empty-site project), before any test uploads.
test.describe('an empty site', () => {
  test('home shows Top Videos and Recent Uploads with the empty state linking to log in', async ({ confirmedPage: page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 2, name: 'Top Videos' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Recent Uploads' })).toBeVisible();
    const empty = page.getByText('No videos available yet.');
    await expect(empty).toHaveCount(2);
    await expect(page.getByRole('link', { name: 'Log in to upload' }).first()).toHaveAttribute('href', '/login');
    await expect(page.getByRole('link', { name: 'Unlock Daily Tasks with VIP' })).toHaveAttribute('href', '/subscribe');
  });

  test('the empty state links to upload for a logged-in member', async ({ confirmedPage: page, request }) => {
    const member = await verifiedMember(request, 'empty');
    await page.addInitScript((token) => window.localStorage.setItem('token', token), member.token);
    await page.goto('/');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: member.username })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Upload a video' }).first()).toHaveAttribute('href', '/upload');
    await expect(page.getByRole('link', { name: 'Upload a video' })).toHaveCount(2);
  });

  test('an empty category says so', async ({ confirmedPage: page }) => {
    await page.goto('/category/Censor');
    await expect(page.getByText('No Censor videos yet.')).toBeVisible();
  });
});
