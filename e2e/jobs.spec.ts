import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Locator, Page } from '@playwright/test';

import { ADMIN, logInThroughForm, unique, uploadClip, verifiedMember, visitor } from './api';
import { expect, expectNoSidewaysScroll, reviewShot, test } from './fixtures';

/**
 * /admin/jobs (decision 023): a real upload that fails processing (an MP4
 * whose frames were cut off: it passes the upload's probe, ffmpeg cannot
 * make its thumbnail) shows with its last error; Retry runs it again at
 * once, so the admin walks it through its attempts to Failed and retries it
 * there; the retry is in the audit log, and a member is refused.
 */
let mediaDir: string;
let broken: Buffer;
test.beforeAll(() => {
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-e2e-jobs-'));
  const file = path.join(mediaDir, 'cut.mp4');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=duration=2:size=320x240:rate=25',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    file,
  ]);
  const bytes = readFileSync(file);
  broken = bytes.subarray(0, bytes.indexOf('mdat') - 4);
});
test.afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

/** Retries the job (in whatever list it is) until it shows under Failed; each Retry runs the next attempt at once. */
async function retryUntilFailed(page: Page, name: string): Promise<Locator> {
  const failed = page.getByRole('list', { name: 'Failed' }).getByRole('article', { name });
  const retrying = page.getByRole('list', { name: 'Retrying after an error' }).getByRole('article', { name });
  await expect
    .poll(
      async () => {
        await page.reload();
        if (await failed.count()) return 'failed';
        if (await retrying.count()) {
          const answered = page.waitForResponse((response) => /\/api\/admin\/jobs\/[^/]+\/retry$/.test(response.url()));
          await retrying.getByRole('button', { name: 'Retry' }).click();
          // 409: its next attempt started between the page load and the click (the worker took it first), which is as good.
          expect([200, 409]).toContain((await answered).status());
        }
        return 'not yet';
      },
      { timeout: 90_000, intervals: [1_000] },
    )
    .toBe('failed');
  return failed;
}

test.describe('jobs you can see', () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) <= 1023, 'runs once, in the desktop project; it checks 375 px itself');

  test('an admin sees a failing upload’s job with its error, retries it to Failed and again, and a member is refused', async ({
    confirmedPage: page,
    request,
  }) => {
    test.setTimeout(150_000);
    const member = await verifiedMember(request, 'jobs', { identity: false });
    const title = `Cut off ${unique()}`;
    const streamVideoId = await uploadClip(request, member.token, broken, { title });
    const name = `process-video job: Video “${title}”`;

    await logInThroughForm(page, ADMIN.email, ADMIN.password, '/admin/jobs');
    await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Admin Panel' }).getByRole('link', { name: 'Jobs' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    const failed = await retryUntilFailed(page, name);
    await expect(failed.getByRole('link', { name: `Video “${title}”` })).toHaveAttribute('href', `/video/${streamVideoId}`);
    await expect(failed.getByText('5 of 5', { exact: true })).toBeVisible();
    // The last error is ffmpeg's own output, shown as text.
    await expect(failed.locator('pre')).toContainText('ffmpeg (thumbnail) failed');
    const jobId = (await failed.locator('.admin-job-id').textContent())!.trim();
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    // Counts at the top: the failed total, and the process-video row.
    await expect(
      page.getByRole('table', { name: 'Jobs by type and state' }).getByRole('row', { name: /process-video/ }),
    ).toBeVisible();
    await reviewShot(page, 'jobs', { fullPage: true });

    // At 375 px the page and the job fit without sideways scroll.
    await page.setViewportSize({ width: 375, height: 740 });
    await expectNoSidewaysScroll(page, 'at 375 px');
    await reviewShot(page, 'jobs', { fullPage: true });
    await reviewShot(failed, 'jobs-item');
    await page.setViewportSize({ width: 1280, height: 800 });

    // A member cannot retry it.
    const refused = await request.post(`/api/admin/jobs/${jobId}/retry`, {
      headers: { Authorization: `Bearer ${member.token}`, ...visitor() },
    });
    expect(refused.status()).toBe(403);

    // Retry from Failed: one more attempt, at once; the file is still broken, so it is failed again with 6 of 6.
    const answered = page.waitForResponse((response) => response.url().endsWith(`/api/admin/jobs/${jobId}/retry`));
    await failed.getByRole('button', { name: 'Retry' }).click();
    expect((await answered).status()).toBe(200);
    await expect(async () => {
      await page.reload();
      await expect(
        page.getByRole('list', { name: 'Failed' }).getByRole('article', { name }).getByText('6 of 6', { exact: true }),
      ).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000 });

    // Each retry is in the audit log, by the admin.
    await page.goto('/admin/audit?action=job.retry');
    await expect(page.getByText(`Retried failed process-video job (Video “${title}”)`)).toBeVisible();
  });
});
