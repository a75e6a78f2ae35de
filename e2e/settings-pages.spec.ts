import { logInThroughForm, verifiedMember, visitor } from './api';
import { expect, expectNoSidewaysScroll, reviewShot, test } from './fixtures';

/**
 * /settings (with #security and #data) and /notifications as pages (issue 36): addresses emails and docs link to,
 * beside the dialog and the bell's panel. Visitors are sent to log in and back; at 1280 and 375 px nothing scrolls
 * sideways.
 */

test('a visitor is sent to log in and comes back to Settings, with its sections as anchors', async ({
  confirmedPage: page,
  request,
}) => {
  const member = await verifiedMember(request, 'settings_page');
  await page.goto('/settings#data');
  // The browser keeps the fragment through the redirect, and the login form takes it along.
  await expect(page).toHaveURL(`/login?next=${encodeURIComponent('/settings')}#data`);
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password').fill(member.password);
  await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL('/settings#data');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.locator('#security').getByRole('heading', { level: 2, name: 'Security' })).toBeVisible();
  await expect(
    page
      .locator('#security')
      .getByRole('button', { name: /two-factor/i })
      .first(),
  ).toBeVisible();
  await expect(page.locator('#data').getByRole('heading', { level: 2, name: 'Your data' })).toBeVisible();
  await expect(page.locator('#data').getByRole('heading', { name: 'Download my data' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Your data' }).click();
  await expect(page).toHaveURL('/settings#data');
  await expect(page.locator('#data')).toBeInViewport();
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width < 1024 ? 740 : 800 });
    await expectNoSidewaysScroll(page, `/settings at ${width}`);
    await reviewShot(page, 'settings', { fullPage: true });
  }
});

test('Notifications is a page: a follow appears there, and opening it marks it read', async ({
  confirmedPage: page,
  request,
}) => {
  const member = await verifiedMember(request, 'notif_page');
  const follower = await verifiedMember(request, 'notif_follower');
  await page.goto('/notifications');
  await expect(page).toHaveURL(`/login?next=${encodeURIComponent('/notifications')}`);
  const followed = await request.post(`/api/users/${member.username}/follow`, {
    headers: { ...visitor(), Authorization: `Bearer ${follower.token}` },
  });
  expect(followed.ok()).toBe(true);
  await logInThroughForm(page, member.email, member.password, '/notifications');
  await expect(page).toHaveURL('/notifications');
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  const item = page
    .getByRole('main')
    .getByRole('link', { name: new RegExp(`Unread: ${follower.username} started following you`) });
  await expect(item).toBeVisible();
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width < 1024 ? 740 : 800 });
    await expectNoSidewaysScroll(page, `/notifications at ${width}`);
    await reviewShot(page, 'notifications', { fullPage: true });
  }
  await page.getByRole('main').getByRole('button', { name: 'Mark all as read' }).click();
  await expect(
    page.getByRole('main').getByRole('link', { name: new RegExp(`^${follower.username} started following you`) }),
  ).toBeVisible();
});
