import { expect, test } from './fixtures';
import { nextUtcMidnightMs, openAs, taskBanner, vipMember } from './tasks';

// Runs in the empty-site project (its name matches playwright.config.ts's testMatch), so before any
// test schedules a daily task: on the fresh e2e server (SEED_DEMO=0) there is no task and no pool.
test.describe('the daily task on an empty site', () => {
  test('a VIP member reads that there is no task today, with the countdown to the next UTC midnight', async ({
    confirmedPage: page,
    request,
  }) => {
    const member = await vipMember(request, 'notask');
    await openAs(page, member);
    const banner = taskBanner(page);
    await expect(banner.getByRole('heading', { name: 'Today’s task' })).toBeVisible();
    await expect(banner.getByText('No task available today. Check back later!')).toBeVisible();
    await expect(banner.getByRole('button', { name: /Complete Task|Task Completed/ })).toHaveCount(0);
    await expect(banner.getByRole('timer')).toHaveText(/^Next task in: \d\dh \d\dm \d\ds$/);
    const [hours, minutes] = (await banner.getByRole('timer').textContent())!.match(/\d\d/g)!.map(Number);
    const left = (hours! * 60 + minutes!) * 60_000;
    expect(Math.abs(nextUtcMidnightMs() - Date.now() - left)).toBeLessThan(2 * 60_000);
  });
});
