import sharp from 'sharp';

import { linkMailedTo, logInThroughForm, openSettings, unique, verifiedMember } from './api';
import { expect, expectNoSidewaysScroll, reviewShot, test } from './fixtures';

const RESET_LINK = /(https?:\/\/[^/\s]+\/reset-password\?token=[A-Za-z0-9_-]+)/;

test.describe('forgot password @mobile', () => {
  test('forgot → email → new password → log in with it; other sessions end and the member is told', async ({
    confirmedPage: page,
    request,
  }) => {
    test.slow();
    const member = await verifiedMember(request, 'forgot');
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL('/forgot-password');
    await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await reviewShot(page, 'forgot-password', { fullPage: true });

    await page.getByRole('button', { name: 'Send me a reset link' }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await page.getByLabel('Email').fill(member.email.toUpperCase());
    await page.getByRole('button', { name: 'Send me a reset link' }).click();
    await expect(page.getByRole('status')).toHaveText(/^If that address belongs to an account, we have sent it a link/);
    await reviewShot(page, 'forgot-password-sent', { fullPage: true });

    const link = await linkMailedTo(member.email, RESET_LINK);
    const opened = await page.goto(link);
    // The token is in the address: nothing may carry it on in a Referer.
    expect(opened!.headers()['referrer-policy']).toBe('no-referrer');
    await expect(page.locator('meta[name="referrer"]')).toHaveAttribute('content', 'no-referrer');
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await reviewShot(page, 'reset-password', { fullPage: true });

    await page.getByLabel('New password', { exact: true }).fill('12345');
    await page.getByLabel('Confirm new password').fill('54321');
    await page.getByRole('button', { name: 'Save my new password' }).click();
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
    await expect(page.getByText('Passwords must match')).toBeVisible();
    await reviewShot(page, 'reset-password-errors', { fullPage: true });

    const newPassword = `fresh-orchid-${unique()}`;
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Save my new password' }).click();
    await expect(page).toHaveURL('/login?reset=done');
    await expect(page.getByRole('main').getByRole('status')).toHaveText(
      'Your password has been reset. Please log in with your new password.',
    );
    await reviewShot(page, 'login-after-reset', { fullPage: true });

    // The session the member had elsewhere has ended, and they were told by email.
    expect((await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${member.token}` } })).status()).toBe(401);
    expect(await linkMailedTo(member.email, /(https?:\/\/[^/\s]+\/forgot-password)\b/)).toMatch(/\/forgot-password$/);

    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password').fill(newPassword);
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL('/');
    expect(await page.evaluate(() => localStorage.getItem('username'))).toBe(member.username);

    // The link worked once.
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'This link didn’t work' })).toBeVisible();
    await expect(page.getByRole('main').getByRole('alert')).toContainText('already been used');
    await expect(page.getByRole('button', { name: 'Send me a new link' })).toBeVisible();
    await reviewShot(page, 'reset-link-used', { fullPage: true });
  });

  test('a forged link says so and offers a new one; the answer for an unknown address is the same', async ({
    confirmedPage: page,
  }) => {
    await page.goto('/reset-password?token=forged-token-0000');
    await expect(page.getByRole('heading', { name: 'This link didn’t work' })).toBeVisible();
    await expect(page.getByRole('main').getByRole('alert')).toContainText('not valid');
    await expectNoSidewaysScroll(page);
    await reviewShot(page, 'reset-link-invalid', { fullPage: true });
    await page.getByLabel('Email').fill(`nobody-${unique()}@example.org`);
    await page.getByRole('button', { name: 'Send me a new link' }).click();
    await expect(page.getByRole('status')).toHaveText(/^If that address belongs to an account, we have sent it a link/);
  });
});

test.describe('profile photo @mobile', () => {
  test('change the photo in settings (the header and profile follow), then remove it for the default avatar', async ({
    confirmedPage: page,
    request,
  }) => {
    test.slow();
    const member = await verifiedMember(request, 'avatar');
    await logInThroughForm(page, member.email, member.password);
    const settings = await openSettings(page);
    const section = settings.getByRole('region', { name: 'Profile photo' });
    await expect(section.getByTestId('avatar-placeholder')).toBeVisible();
    await expect(section.getByRole('button', { name: 'Remove photo' })).toHaveCount(0);

    // Not an image: refused in the browser, with the server's words.
    await section
      .getByLabel('Choose a new photo')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
    await expect(section.getByRole('status')).toHaveText('Profile photo must be an image file (JPEG, PNG, WebP, GIF or AVIF).');

    const photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#ff4fa3' } })
      .jpeg()
      .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .toBuffer();
    await section.getByLabel('Choose a new photo').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: photo });
    await expect(section.getByRole('status')).toHaveText('Profile photo updated.');
    const avatar = section.locator('img.avatar');
    await expect(avatar).toHaveAttribute('src', /^\/media\/avatars\/[0-9a-f]{24}-256\.webp$/);
    const src = (await avatar.getAttribute('src'))!;
    expect((await request.get(src)).headers()['content-type']).toBe('image/webp');
    await expectNoSidewaysScroll(page, 'settings with a photo');
    await reviewShot(page, 'settings-photo', { fullPage: true });
    await page.keyboard.press('Escape');

    // The header shows it (desktop; the mobile menu carries the same link).
    if ((page.viewportSize()?.width ?? 1280) >= 1024) {
      await expect(page.getByRole('navigation', { name: 'Main' }).locator('img.nav-avatar')).toHaveAttribute(
        'src',
        src.replace('-256.webp', '-64.webp'),
      );
      await reviewShot(page, 'header-avatar', { fullPage: true });
    }
    await page.goto(`/profile/${member.username}`);
    await expect(page.locator('.profile-page img.avatar')).toHaveAttribute('src', src);
    await reviewShot(page, 'profile-with-photo', { fullPage: true });

    const again = await openSettings(page);
    await again.getByRole('region', { name: 'Profile photo' }).getByRole('button', { name: 'Remove photo' }).click();
    await expect(again.getByRole('region', { name: 'Profile photo' }).getByRole('status')).toHaveText('Profile photo removed.');
    await expect(again.getByRole('region', { name: 'Profile photo' }).getByTestId('avatar-placeholder')).toBeVisible();
    await page.keyboard.press('Escape');
    // The old file is gone, and the profile shows the default avatar.
    expect((await request.get(src)).status()).toBe(404);
    await expect(page.locator('.profile-page').getByTestId('avatar-placeholder')).toBeVisible();
    await page.reload();
    await expect(page.locator('.profile-page').getByTestId('avatar-placeholder')).toBeVisible();
    await reviewShot(page, 'profile-photo-removed', { fullPage: true });
  });
});

test.describe('the spec’s fallback texts when an error carries no server message @mobile', () => {
  const BAD_GATEWAY = {
    status: 502,
    contentType: 'text/html',
    body: '<html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>',
  };

  test('login and register: a 502 HTML page and a network error', async ({ confirmedPage: page }) => {
    // Six page loads and forms: room for a busy two-core runner.
    test.slow();
    // A fresh page for each answer, so each message is the answer's own.
    for (const answer of ['502', 'abort'] as const) {
      await page.route('**/api/auth/**', (route) =>
        answer === 'abort' ? route.abort('connectionfailed') : route.fulfill(BAD_GATEWAY),
      );
      await page.goto('/login');
      await page.getByLabel('Email').fill('someone@example.org');
      await page.getByLabel('Password').fill('whatever-123');
      await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
      await expect(page.getByRole('main').getByRole('alert')).toHaveText('Failed to login');

      await page.goto('/register');
      await page.getByLabel('Username').fill(`fallback_${unique()}`);
      await page.getByLabel('Email').fill(`fallback-${unique()}@example.org`);
      await page.getByLabel('Password', { exact: true }).fill('orchid-velvet-77');
      await page.getByLabel('Confirm password').fill('orchid-velvet-77');
      await page.getByLabel('Date of birth').fill('1994-06-15');
      await page.getByRole('button', { name: 'Sign up' }).click();
      await expect(page.getByRole('main').getByRole('alert')).toHaveText('Failed to register');
      if (answer === '502') await reviewShot(page, 'register-fallback', { fullPage: true });

      await page.goto('/forgot-password');
      await page.getByLabel('Email').fill('someone@example.org');
      await page.getByRole('button', { name: 'Send me a reset link' }).click();
      await expect(page.getByRole('main').getByRole('status')).toHaveText('Failed to send the reset email. Please try again.');
      await page.unroute('**/api/auth/**');
    }
  });

  test('settings: preferences, email and password', async ({ confirmedPage: page, request }) => {
    test.slow();
    const member = await verifiedMember(request, 'fallback');
    await logInThroughForm(page, member.email, member.password);
    for (const answer of ['502', 'abort'] as const) {
      await page.reload();
      const settings = await openSettings(page);
      await page.route('**/api/users/settings/**', (route) =>
        answer === 'abort' ? route.abort('connectionfailed') : route.fulfill(BAD_GATEWAY),
      );

      const preferences = settings.getByRole('region', { name: 'Video preferences' });
      await preferences.getByRole('switch', { name: 'Autoplay videos' }).click();
      await expect(preferences.getByRole('status')).toHaveText('Failed to update preferences');

      const email = settings.getByRole('region', { name: 'Update email' });
      const newEmail = `new-${unique()}@example.org`;
      await email.getByLabel('New email', { exact: true }).fill(newEmail);
      await email.getByLabel('Confirm new email').fill(newEmail);
      await email.getByLabel('Current password').fill(member.password);
      await email.getByRole('button', { name: 'Update email' }).click();
      await expect(email.getByRole('status')).toHaveText('Failed to update email.');

      const password = settings.getByRole('region', { name: 'Update password' });
      await password.getByLabel('Current password').fill(member.password);
      await password.getByLabel('New password', { exact: true }).fill('lotus-silk-88');
      await password.getByLabel('Confirm new password').fill('lotus-silk-88');
      await password.getByRole('button', { name: 'Update password' }).click();
      await expect(password.getByRole('status')).toHaveText('Failed to update password.');

      const photo = settings.getByRole('region', { name: 'Profile photo' });
      const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#336699' } })
        .png()
        .toBuffer();
      await photo.getByLabel('Choose a new photo').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
      await expect(photo.getByRole('status')).toHaveText('Failed to update profile photo.');
      if (answer === '502') await reviewShot(page, 'settings-fallbacks', { fullPage: true });
      await page.unroute('**/api/users/settings/**');
    }
    // A 502 is no logout: the member is still here.
    expect(await page.evaluate(() => localStorage.getItem('username'))).toBe(member.username);
  });
});
