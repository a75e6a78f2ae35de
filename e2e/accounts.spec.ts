import type { Page } from '@playwright/test';

import { logInThroughForm, unique, verificationLinkFor, verifiedMember } from './api';
import { expect, expectNoSidewaysScroll, test } from './fixtures';

async function registerThroughForm(page: Page, username: string, email: string, password: string) {
  await page.goto('/register');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByLabel('Date of birth').fill('1994-06-15');
  await page.getByRole('button', { name: 'Sign up' }).click();
}

test.describe('accounts', () => {
  test('register → email → verify → log in → settings → log out', async ({ confirmedPage: page }) => {
    // A whole member journey in one test: on a busy 2-core runner it passes 30 s.
    test.slow();
    const id = unique();
    const email = `member-${id}@example.org`;
    await registerThroughForm(page, `member_${id}`, email, 'orchid-velvet-77');

    const popup = page.getByRole('dialog', { name: 'Check your email' });
    await expect(popup).toBeVisible();
    await expect(popup.getByRole('button', { name: /Resend in \d+s/ })).toBeDisabled();

    const link = await verificationLinkFor(email);
    await page.goto(link);
    await expect(page).toHaveURL('/email-verified');
    await expect(page.getByRole('heading', { name: 'Email verified' })).toBeVisible();

    await page.getByRole('link', { name: 'Log in' }).last().click();
    // Wait for the login page: until then "Email" also names the verified page's section.
    await expect(page).toHaveURL('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('orchid-velvet-77');
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: `member_${id}` })).toHaveAttribute('href', `/profile/member_${id}`);
    await expect(nav.getByRole('link', { name: 'Upload' })).toBeVisible();
    expect(await page.evaluate(() => [localStorage.getItem('token') !== null, localStorage.getItem('username')])).toEqual([
      true,
      `member_${id}`,
    ]);
    // The member navbar fits from the desktop breakpoint up, without sideways scrolling.
    for (const width of [1024, 1280, 1920]) {
      await page.setViewportSize({ width, height: 800 });
      await expectNoSidewaysScroll(page, `at ${width} px`);
      await expect(nav.getByRole('button', { name: 'Logout' })).toBeInViewport();
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // Settings: mismatched emails are caught inline, the password change succeeds.
    await nav.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByLabel('New email', { exact: true }).fill('a@example.org');
    await settings.getByLabel('Confirm new email').fill('b@example.org');
    await settings.getByRole('region', { name: 'Update email' }).getByLabel('Current password').fill('orchid-velvet-77');
    await settings.getByRole('button', { name: 'Update email' }).click();
    await expect(settings.getByText('Emails do not match.')).toBeVisible();
    // The form moves focus to the field in error; wait for it, or typing below could land there.
    await expect(settings.getByLabel('Confirm new email')).toBeFocused();

    await settings.getByRole('region', { name: 'Update password' }).getByLabel('Current password').fill('wrong-one');
    await settings.getByLabel('New password', { exact: true }).fill('lotus-silk-88');
    await settings.getByLabel('Confirm new password').fill('lotus-silk-88');
    await settings.getByRole('button', { name: 'Update password' }).click();
    await expect(settings.getByText('Your current password is incorrect.')).toBeVisible();
    await settings.getByRole('region', { name: 'Update password' }).getByLabel('Current password').fill('orchid-velvet-77');
    await settings.getByRole('button', { name: 'Update password' }).click();
    await expect(settings.getByText('Password updated successfully!')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(settings).toBeHidden();

    await nav.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL('/');
    await expect(nav.getByRole('link', { name: 'Log in' })).toBeVisible();
    expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('username')])).toEqual([null, null]);
    expect((await page.context().cookies()).find((c) => c.name === 'chrysalis_session')).toBeUndefined();
  });

  test('an unverified login opens the verification popup with its 60-second countdown', async ({ confirmedPage: page }) => {
    const id = unique();
    const email = `unverified-${id}@example.org`;
    await registerThroughForm(page, `unverified_${id}`, email, 'orchid-velvet-77');
    await page.getByRole('dialog', { name: 'Check your email' }).getByRole('button', { name: 'Close' }).click();

    await page.clock.install();
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('orchid-velvet-77');
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    const popup = page.getByRole('dialog', { name: 'Check your email' });
    await expect(popup).toBeVisible();
    await expect(popup.getByRole('button', { name: 'Resend in 60s' })).toBeDisabled();
    // The countdown's timer is armed just after the popup paints; on a busy machine a step of the fake clock can
    // come first. Step a second at a time until it ticks, then the rest of the minute.
    const countdown = popup.getByRole('button', { name: /^Resend in \d+s$/ });
    await expect
      .poll(async () => {
        await page.clock.runFor(1_000);
        return countdown.textContent();
      })
      .not.toBe('Resend in 60s');
    await page.clock.runFor(29_000);
    await expect(popup.getByRole('button', { name: /Resend in [23]\ds/ })).toBeDisabled();
    await page.clock.runFor(31_000);
    const resend = popup.getByRole('button', { name: 'Resend verification email' });
    await expect(resend).toBeEnabled();
    await resend.click();
    await expect(popup.getByText(/a new verification email is on its way/)).toBeVisible();
    await popup.getByRole('button', { name: 'Close' }).click();
    await expect(popup).toBeHidden();
  });

  test('shows the server’s message for a wrong password, and the form’s own checks', async ({ confirmedPage: page }) => {
    await page.goto('/login');
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Email').blur();
    await expect(page.getByText('Invalid email address')).toBeVisible();
    await page.getByLabel('Email').fill('nobody@example.org');
    await page.getByLabel('Password').fill('whatever-1');
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('main').getByRole('alert')).toHaveText('Invalid email or password');
  });

  test('the register form shows the spec’s messages', async ({ confirmedPage: page }) => {
    await page.goto('/register');
    await page.getByRole('button', { name: 'Sign up' }).click();
    for (const message of [
      'Username is required',
      'Email is required',
      'Password is required',
      'Please confirm your password',
      'Date of birth is required',
    ]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
    await page.getByLabel('Username').fill('ab');
    await page.getByLabel('Password', { exact: true }).fill('12345');
    await page.getByLabel('Confirm password').fill('54321');
    const year = new Date().getFullYear() - 10;
    await page.getByLabel('Date of birth').fill(`${year}-01-01`);
    await page.getByRole('button', { name: 'Sign up' }).click();
    for (const message of [
      'Username must be at least 3 characters',
      'Password must be at least 6 characters',
      'Passwords must match',
      'You must be at least 18 years old',
    ]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
    await expect(page.getByRole('main').getByRole('link', { name: 'Terms of Use' })).toHaveAttribute('href', '/terms-of-use');
  });

  test('member pages send visitors to log in and bring them back; no open redirects', async ({ confirmedPage: page }) => {
    // Nine page loads and a sign-up: on a busy 2-core runner, with the login pages rendered per request (their CSP nonce), over 30 s.
    test.slow();
    for (const path of ['/upload', '/liked-videos', '/following', '/profile/someone', '/settings', '/notifications']) {
      await page.goto(path);
      await expect(page).toHaveURL(`/login?next=${encodeURIComponent(path)}`);
    }
    await page.goto('/admin');
    await expect(page).toHaveURL(`/login?next=${encodeURIComponent('/admin')}`);

    const id = unique();
    const email = `guard-${id}@example.org`;
    await registerThroughForm(page, `guard_${id}`, email, 'orchid-velvet-77');
    await page.goto(await verificationLinkFor(email));
    await page.goto(`/login?next=${encodeURIComponent('/following')}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('orchid-velvet-77');
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL('/following');
    // A member who is not an admin is sent home from /admin.
    await page.goto('/admin');
    await expect(page).toHaveURL('/');
  });

  test('login ignores next values that leave the site', async ({ confirmedPage: page }) => {
    const id = unique();
    const email = `redirect-${id}@example.org`;
    await registerThroughForm(page, `redirect_${id}`, email, 'orchid-velvet-77');
    await page.goto(await verificationLinkFor(email));
    await page.goto(`/login?next=${encodeURIComponent('//evil.example/steal')}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('orchid-velvet-77');
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL('/');
  });

  test('a session ended elsewhere logs this browser out once, without a logout loop', async ({
    confirmedPage: page,
    request,
  }) => {
    const member = await verifiedMember(request, 'revoked');
    await logInThroughForm(page, member.email, member.password, '/upload');
    const token = await page.evaluate(() => localStorage.getItem('token'));
    // The session is revoked on the server (a logout on another device with the same token).
    expect((await request.post('/api/auth/logout', { headers: { Authorization: `Bearer ${token}` } })).ok()).toBe(true);

    const logouts: string[] = [];
    page.on('request', (sent) => {
      if (sent.url().endsWith('/api/auth/logout')) logouts.push(sent.method());
    });
    await page.reload();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' })).toBeVisible();
    await page.waitForTimeout(1_000);
    expect(logouts.length).toBeLessThanOrEqual(1);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });
});
