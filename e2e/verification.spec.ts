import type { Page } from '@playwright/test';

import { ADMIN, adminToken, identityPhoto, logInThroughForm, verifiedMember, visitor } from './api';
import { expect, expectNoSidewaysScroll, reviewShot, test } from './fixtures';

/**
 * Verified uploaders in the browser (issue 12, item 1): a member sends their
 * documents at /verify, an admin opens them at /admin/verifications (the
 * photos load through the admin-only route) and approves; a rejected member
 * reads the reason and sends new ones. Screenshots at 1280 and 375 px.
 */

async function shots(page: Page, name: string) {
  await reviewShot(page, name, { fullPage: true });
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 375, height: 740 });
  await expectNoSidewaysScroll(page, name);
  await reviewShot(page, name, { fullPage: true });
  await page.setViewportSize(size);
}

async function fillVerification(page: Page, legalName: string, dateOfBirth: string) {
  const photo = await identityPhoto();
  await page.getByLabel('Full legal name').fill(legalName);
  await page.getByLabel('Date of birth').fill(dateOfBirth);
  await page.getByLabel('Government ID').setInputFiles({ name: 'id.jpg', mimeType: 'image/jpeg', buffer: photo });
  await page.getByLabel('Selfie holding your ID').setInputFiles({ name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: photo });
}

test.describe('verified uploaders', () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) <= 1023, 'runs once, in the desktop project; it checks 375 px itself');

  test('a member sends their documents, an admin sees them and approves', async ({ confirmedPage: page, request, browser }) => {
    test.setTimeout(120_000);
    const member = await verifiedMember(request, 'idcheck', { identity: false });

    // The upload page says what is missing, with the way to fix it.
    await logInThroughForm(page, member.email, member.password, '/upload');
    await expect(page.getByRole('note')).toContainText('Your videos will be published only after you verify your identity');
    await page.getByRole('note').getByRole('link', { name: 'verify your identity' }).click();
    await expect(page).toHaveURL('/verify');
    await expect(page.getByRole('heading', { level: 1, name: 'Verify your identity' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Not verified', exact: true })).toBeVisible();
    await shots(page, 'verify-none');

    // Too young: refused in the form, nothing sent.
    await fillVerification(page, 'Idris Example', '2012-03-04');
    await page.getByRole('button', { name: 'Send for review' }).click();
    await expect(page.getByText('You must be at least 18 years old')).toBeVisible();
    await shots(page, 'verify-form-errors');

    await page.getByLabel('Date of birth').fill('1991-07-21');
    await page.getByRole('button', { name: 'Send for review' }).click();
    await expect(page.getByRole('heading', { name: 'Under review' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Your documents are with our team' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send for review' })).toHaveCount(0);
    await shots(page, 'verify-pending');

    // The admin, in a browser of their own.
    const adminContext = await browser.newContext({ extraHTTPHeaders: visitor() });
    const admin = await adminContext.newPage();
    await admin.addInitScript(() => window.sessionStorage.setItem('chrysalis.ageConfirmed', 'true'));
    try {
      await logInThroughForm(admin, ADMIN.email, ADMIN.password, '/admin/verifications');
      await expect(
        admin.getByRole('navigation', { name: 'Admin Panel' }).getByRole('link', { name: 'Verifications' }),
      ).toHaveAttribute('aria-current', 'page');
      const row = admin.getByRole('row').filter({ hasText: 'Idris Example' });
      await expect(row).toBeVisible();
      await shots(admin, 'admin-verifications');
      await row.getByRole('link', { name: `Review ${member.username}` }).click();
      await expect(admin.getByRole('heading', { level: 1, name: member.username })).toBeVisible();
      await expect(admin.getByText('1991-07-21 (age')).toBeVisible();
      // Both photos really load (through the admin-only route), not a broken image.
      for (const name of ['ID document', 'Selfie']) {
        const image = admin.getByRole('img', { name });
        await expect(image).toBeVisible();
        await expect
          .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth))
          .toBe(120);
      }
      await shots(admin, 'admin-verification-detail');
      await admin.getByRole('button', { name: 'Approve', exact: true }).click();
      await admin.getByRole('button', { name: `Verify ${member.username}` }).click();
      // The page refreshes with the decision: the badge says so and the buttons are gone.
      await expect(admin.locator('.admin-badge').filter({ hasText: 'Verified' })).toBeVisible();
      await expect(admin.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);

      // Every view of a document is in the audit log.
      const token = await adminToken(request);
      const log = await request.get('/api/admin/audit-log?action=document.view', {
        headers: { Authorization: `Bearer ${token}` },
      });
      const entries = ((await log.json()) as { entries: { summary: string }[] }).entries.filter((entry) =>
        entry.summary.endsWith(` of ${member.username}`),
      );
      expect(entries.length).toBeGreaterThanOrEqual(2);
    } finally {
      await adminContext.close();
    }

    // The member sees it, and the upload page no longer warns.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'You are verified' })).toBeVisible();
    await shots(page, 'verify-approved');
    await page.goto('/upload');
    await expect(page.getByRole('heading', { level: 1, name: 'Upload a video' })).toBeVisible();
    await expect(page.getByRole('note')).toHaveCount(0);
  });

  test('a rejected member reads the reason and sends new documents', async ({ confirmedPage: page, request }) => {
    test.setTimeout(120_000);
    const member = await verifiedMember(request, 'idretry', { identity: false });
    const photo = await identityPhoto();
    const sent = await request.post('/api/users/me/verification', {
      headers: { Authorization: `Bearer ${member.token}`, ...visitor() },
      multipart: {
        legalName: 'Rene Example',
        dateOfBirth: '1988-10-02',
        idDocument: { name: 'id.jpg', mimeType: 'image/jpeg', buffer: photo },
        selfie: { name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: photo },
      },
    });
    expect(sent.status()).toBe(201);
    const { verification } = (await sent.json()) as { verification: { _id: string } };
    const reason = 'The ID has expired. Please use a current government ID.';
    const rejected = await request.patch(`/api/admin/verifications/${verification._id}`, {
      headers: { Authorization: `Bearer ${await adminToken(request)}` },
      data: { action: 'reject', reason },
    });
    expect(rejected.status()).toBe(200);

    await logInThroughForm(page, member.email, member.password, '/verify');
    await expect(page.getByRole('heading', { name: 'Not verified yet' })).toBeVisible();
    await expect(page.getByText(reason)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Read the decision and how to appeal it' })).toHaveAttribute(
      'href',
      /^\/decisions\/[0-9a-f-]{36}$/,
    );
    await expect(page.getByRole('heading', { name: 'Send new documents' })).toBeVisible();
    await shots(page, 'verify-rejected');

    await fillVerification(page, 'Rene Example', '1988-10-02');
    await page.getByRole('button', { name: 'Send for review' }).click();
    await expect(page.getByRole('heading', { name: 'Under review' })).toBeVisible();
  });
});
