import type { Page } from '@playwright/test';

import { adminToken, logInThroughForm, totpCode, verifiedMember } from './api';
import { expect, expectNoSidewaysScroll, reviewShot, test } from './fixtures';

/**
 * Two-factor authentication in the browser (decision 018): a member turns it
 * on in Security settings with their current password (a wrong one is
 * refused on the field), reading the key from the page and computing codes
 * as an authenticator app would, logs out, logs in with a code, then with a
 * recovery code, which works once; new recovery codes need the password too,
 * and other devices can be logged out. At 1280 and 375 px.
 */

const currentStep = () => Math.floor(Date.now() / 30_000);

async function logOut(page: Page) {
  if ((page.viewportSize()?.width ?? 1280) < 1024) {
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.locator('#mobile-menu').getByRole('button', { name: 'Logout' }).click();
  } else {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' }).click();
  }
  await expect(page).toHaveURL('/');
}

async function passwordStep(page: Page, email: string, password: string) {
  await page.goto('/login?next=%2Fsettings%2Fsecurity');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
}

test('a member turns on two-factor, logs in with a code, then with a recovery code that works once @mobile', async ({
  confirmedPage: page,
  request,
}) => {
  test.slow();
  const member = await verifiedMember(request, 'twofa');
  await logInThroughForm(page, member.email, member.password, '/settings/security');
  await expect(page.getByRole('heading', { level: 1, name: 'Security' })).toBeVisible();
  await expect(page.getByText('Two-factor authentication is off.')).toBeVisible();
  // A session alone cannot start it: the current password is asked for, and a wrong one is refused on its field.
  const start = page.getByRole('form', { name: 'Set up two-factor authentication' });
  await start.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  await expect(start.getByText('Current password is required')).toBeVisible();
  await start.getByLabel('Current password').fill('not-my-password-1');
  await start.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  await expect(start.getByText('Your current password is incorrect.')).toBeVisible();
  await reviewShot(page, 'setup-password', { fullPage: true });
  await start.getByLabel('Current password').fill(member.password);
  await start.getByRole('button', { name: 'Set up two-factor authentication' }).click();

  const key = page.locator('.two-factor-secret');
  await expect(key).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await key.getAttribute('data-secret'))!;
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  // Shown in groups of four, for typing by hand.
  expect((await key.textContent())!.replace(/ /g, '')).toBe(secret);
  await expectNoSidewaysScroll(page, 'setup');
  await reviewShot(page, 'setup', { fullPage: true });

  // A wrong code is refused with a sentence; the right one turns it on and shows 10 recovery codes once.
  const wrong = String((Number(totpCode(secret)) + 500_000) % 1_000_000).padStart(6, '0');
  await page.getByLabel('Code from the app').fill(wrong);
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText(/^That code is not right\./)).toBeVisible();
  const confirmStep = currentStep();
  await page.getByLabel('Code from the app').fill(totpCode(secret, confirmStep));
  await page.getByRole('button', { name: 'Turn on' }).click();
  const list = page.getByRole('list', { name: 'Recovery codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const codes = (await list.getByRole('listitem').allTextContents()).map((code) => code.trim());
  await expect(page.getByText('Two-factor authentication is on.', { exact: false }).first()).toBeVisible();
  await expectNoSidewaysScroll(page, 'recovery codes');
  await reviewShot(page, 'recovery-codes', { fullPage: true });

  // Log out; the password alone no longer logs in: the form asks for the code.
  await logOut(page);
  await passwordStep(page, member.email, member.password);
  await expectNoSidewaysScroll(page, 'code step');
  await reviewShot(page, 'login-code', { fullPage: true });
  // The code the setup used is refused as reused.
  await page.getByLabel('Authentication code').fill(totpCode(secret, confirmStep));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(/^(That code has already been used|That code is not right)\./)).toBeVisible();
  await page.getByLabel('Authentication code').fill(totpCode(secret, Math.max(confirmStep + 1, currentStep())));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL('/settings/security');
  await expect(page.getByText('You have 10 unused recovery codes.', { exact: false })).toBeVisible();
  // New recovery codes need the password as well as a code.
  const regenerate = page.getByRole('form', { name: 'New recovery codes' });
  await regenerate.getByLabel('Current password').fill('not-my-password-1');
  await regenerate.getByLabel('Code from the app').fill('123456');
  await regenerate.getByRole('button', { name: 'Get new recovery codes' }).click();
  await expect(regenerate.getByText('Your current password is incorrect.')).toBeVisible();
  await expectNoSidewaysScroll(page, 'security settings, on');
  await reviewShot(page, 'enabled', { fullPage: true });
  // Other devices: logged out from here; this browser stays in.
  await page.getByRole('button', { name: 'Log out other devices' }).click();
  await expect(page.getByText('Your other sessions have ended', { exact: false })).toBeVisible();

  // A lost phone: a recovery code logs in once.
  await logOut(page);
  await passwordStep(page, member.email, member.password);
  await page.getByRole('button', { name: 'Lost your phone? Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL('/settings/security');
  await expect(page.getByText('You have 9 unused recovery codes.', { exact: false })).toBeVisible();
  await logOut(page);
  await passwordStep(page, member.email, member.password);
  await page.getByRole('button', { name: 'Lost your phone? Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(
    page.getByText('That recovery code has already been used. Each recovery code works once: use another one.'),
  ).toBeVisible();
  await reviewShot(page, 'recovery-used', { fullPage: true });
});

test('a new admin is sent from the admin panel to enrol, then to log in again with a code, and then gets in @mobile', async ({
  confirmedPage: page,
  request,
}) => {
  test.slow();
  const chief = await adminToken(request);
  const member = await verifiedMember(request, 'newadmin');
  const me = await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${member.token}` } });
  const id = ((await me.json()) as { user: { _id: string } }).user._id;
  const promoted = await request.post(`/api/admin/users/${id}/admin`, { headers: { Authorization: `Bearer ${chief}` } });
  expect(promoted.status(), await promoted.text()).toBe(200);

  // Not enrolled: the admin panel sends them to Security settings, which says why.
  await logInThroughForm(page, member.email, member.password, '/');
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/settings\/security\?next=%2Fadmin$/);
  await expect(page.getByText('You are an admin: turn on two-factor authentication to use the admin panel')).toBeVisible();
  await reviewShot(page, 'admin-enrol', { fullPage: true });

  // Enrolled in this session: it still started without a code, so they are asked to log in again.
  await page.getByLabel('Current password').fill(member.password);
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  const secret = (await page.locator('.two-factor-secret').getAttribute('data-secret'))!;
  const step = currentStep();
  await page.getByLabel('Code from the app').fill(totpCode(secret, step));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByRole('list', { name: 'Recovery codes' })).toBeVisible();
  await expect(page.getByText('This session was started without your two-factor code.')).toBeVisible();
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/settings\/security/);
  await reviewShot(page, 'admin-log-in-again', { fullPage: true });
  await page.getByRole('button', { name: 'Log in again' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Fadmin$/);
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password').fill(member.password);
  await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
  await page.getByLabel('Authentication code').fill(totpCode(secret, Math.max(step + 1, currentStep())));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  // Admins keep it on: Security settings offer no way to turn it off.
  await page.goto('/settings/security');
  await expect(page.getByText('Admins must keep two-factor authentication on.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Turn off two-factor authentication' })).toHaveCount(0);
});
