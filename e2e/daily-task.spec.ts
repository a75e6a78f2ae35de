import AxeBuilder from '@axe-core/playwright';

import { ADMIN, adminToken, logInThroughForm, unique, verifiedMember } from './api';
import { expect, expectNoSidewaysScroll, reviewShot, test } from './fixtures';
import { ensureTodaysTask, nextUtcMidnightMs, openAs, taskBanner, vipMember } from './tasks';

// Markup in a task is text: it must show as typed, never as HTML.
const TODAYS_TASK = 'Write down three things you like about the person you are becoming. <b>Be kind.</b>';

test.describe('the daily task on home', () => {
  test('a visitor and a member without VIP see the unlock banner linking to /subscribe @mobile', async ({
    confirmedPage: page,
    request,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Unlock Daily Tasks with VIP' })).toHaveAttribute('href', '/subscribe');

    const member = await verifiedMember(request, 'novip');
    await openAs(page, member);
    await expect(taskBanner(page).getByRole('heading', { name: 'Unlock Daily Tasks with VIP' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Unlock Daily Tasks with VIP' })).toHaveAttribute('href', '/subscribe');
    await expect(page.getByRole('heading', { name: 'Today’s task' })).toHaveCount(0);
    const refused = await request.get('/api/dailytasks/today', { headers: { Authorization: `Bearer ${member.token}` } });
    expect(refused.status()).toBe(403);
  });

  test('a VIP member sees today’s task and the countdown, completes it once, and it stays completed @mobile', async ({
    confirmedPage: page,
    request,
  }) => {
    const admin = await adminToken(request);
    const description = await ensureTodaysTask(request, admin, TODAYS_TASK);
    const member = await vipMember(request, 'vip', admin);

    await openAs(page, member);
    const banner = taskBanner(page);
    await expect(banner.getByRole('heading', { name: 'Today’s task' })).toBeVisible();
    await expect(banner.getByTestId('daily-task-text')).toHaveText(description);
    await expect(banner.locator('b')).toHaveCount(0);
    await expect(banner.getByRole('timer')).toHaveText(/^Next task in: \d\dh \d\dm \d\ds$/);
    // It ticks every second.
    const before = await banner.getByRole('timer').textContent();
    await expect(banner.getByRole('timer')).not.toHaveText(before!, { timeout: 3_000 });
    await expect(banner.getByTestId('daily-task-count')).toHaveText('0');
    await expect(page.getByRole('link', { name: 'Unlock Daily Tasks with VIP' })).toHaveCount(0);
    await reviewShot(page, 'daily-task-open');
    await expectNoSidewaysScroll(page, 'with the task banner');

    const button = banner.getByRole('button', { name: 'Complete Task' });
    await expect(button).toBeEnabled();
    await button.click();
    const done = banner.getByRole('button', { name: 'Task Completed' });
    await expect(done).toBeDisabled();
    await expect(banner.getByRole('status').filter({ hasText: 'Well done!' })).toHaveText(
      'Well done! Task completed. You have completed 1 task.',
    );
    await expect(banner.getByTestId('daily-task-count')).toHaveText('1');
    await expect(banner.getByTestId('daily-task-streak')).toHaveText('1');
    await reviewShot(page, 'daily-task-done');
    const axe = await new AxeBuilder({ page })
      .include('.daily-task')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'])
      .analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

    // The server counted it once; a second try (another tab, a script) is refused.
    const again = await request.post('/api/users/complete-task', { headers: { Authorization: `Bearer ${member.token}` } });
    expect(again.status()).toBe(409);
    expect(((await again.json()) as { message: string }).message).toBe("You have already completed today's task.");

    await page.reload();
    await expect(taskBanner(page).getByRole('button', { name: 'Task Completed' })).toBeDisabled();
    await expect(taskBanner(page).getByTestId('daily-task-count')).toHaveText('1');

    // The reward counter and streak are on the member's profile.
    await page.goto(`/profile/${member.username}`);
    // The counter a person sees (a hidden copy has been seen in the DOM for a moment after the load).
    await expect(page.getByTestId('reward-tasks').filter({ visible: true })).toHaveText('1');
    await expect(page.getByTestId('reward-streak').filter({ visible: true })).toHaveText('1 day');
    await expect(page.getByLabel('Daily task rewards')).toHaveText('Daily tasks completed1Current streak1 day');
    await reviewShot(page, 'profile-rewards');
  });

  test('the countdown reaches the next UTC midnight, then says a new task is coming', async ({
    confirmedPage: page,
    request,
  }) => {
    const admin = await adminToken(request);
    await ensureTodaysTask(request, admin, TODAYS_TASK);
    const member = await vipMember(request, 'clock', admin);
    // The browser's clock a minute before the next UTC midnight (it runs on from there); the server keeps real time.
    await page.clock.install({ time: nextUtcMidnightMs() - 60_000 });
    await openAs(page, member);
    const timer = taskBanner(page).getByRole('timer');
    await expect(timer).toHaveText(/^Next task in: 00h 00m \d\ds$/);
    await page.clock.runFor(61_000);
    await expect(timer).toHaveText('New task available soon!');
    // Not completed (a new member), so the button still offers the task.
    await expect(taskBanner(page).getByRole('button', { name: 'Complete Task' })).toBeEnabled();
  });

  test('says "Could not load task. Try again later." when the API fails', async ({ confirmedPage: page, request }) => {
    const member = await vipMember(request, 'broken');
    let calls = 0;
    await page.route('**/api/dailytasks/today', (route) => {
      calls += 1;
      return route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Something went wrong on our side. Please try again.' }),
      });
    });
    await openAs(page, member);
    const banner = taskBanner(page);
    await expect(banner.getByText('Could not load task. Try again later.')).toBeVisible();
    await expect(banner.getByRole('button', { name: /Complete Task|Task Completed/ })).toHaveCount(0);
    await expect(banner.getByRole('timer')).toHaveText(/^Next task in: /);

    // Try again asks once more, and shows the task once the API answers.
    expect(calls).toBeGreaterThan(0);
    await page.unroute('**/api/dailytasks/today');
    await banner.getByRole('button', { name: 'Try again' }).click();
    await expect(banner.getByText('Could not load task. Try again later.')).toHaveCount(0);
    await expect(
      banner.getByTestId('daily-task-text').or(banner.getByText('No task available today. Check back later!')),
    ).toBeVisible();
  });

  test('shows the server’s message when completing fails', async ({ confirmedPage: page, request }) => {
    const admin = await adminToken(request);
    await ensureTodaysTask(request, admin, TODAYS_TASK);
    const member = await vipMember(request, 'refused', admin);
    await page.route('**/api/users/complete-task', (route) =>
      route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: JSON.stringify({ message: "You have already completed today's task." }),
      }),
    );
    await openAs(page, member);
    const banner = taskBanner(page);
    await banner.getByRole('button', { name: 'Complete Task' }).click();
    await expect(banner.getByRole('status').filter({ hasText: 'already' })).toHaveText(
      "You have already completed today's task.",
    );
  });
});

test.describe('admin scheduling', () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) <= 1023, 'runs once, in the desktop project; it checks 375 px itself');

  test('an admin schedules a task, edits it and deletes it at /admin/tasks', async ({ confirmedPage: page }) => {
    // A far-off day of its own, so parallel runs never meet.
    const year = 2100 + Math.floor(Math.random() * 800);
    const day = `${year}-06-${String(10 + Math.floor(Math.random() * 18)).padStart(2, '0')}`;
    const text = `Spend ten minutes on a slow self-care ritual ${unique()}.`;

    await logInThroughForm(page, ADMIN.email, ADMIN.password, '/admin/tasks');
    await expect(page.getByRole('heading', { level: 1, name: 'Daily tasks' })).toBeVisible();
    await expect(page.getByRole('heading', { name: /^Today, / })).toBeVisible();

    const form = page.getByRole('form', { name: 'Add a task' });
    await form.getByRole('button', { name: 'Add task' }).click();
    await expect(form.getByText('Task description is required.')).toBeVisible();
    await expect(form.getByLabel('Task')).toBeFocused();

    await form.getByLabel('Task').fill(text);
    await expect(form.getByText(`${text.length} / 500 characters`)).toBeVisible();
    await form.getByLabel('Schedule for (UTC day, optional)').fill(day);
    await form.getByRole('button', { name: 'Add task' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Added the task' })).toContainText('Added the task for');
    await expect(form.getByLabel('Task')).toHaveValue('');

    const scheduled = page.getByRole('list', { name: 'Scheduled tasks' });
    const item = scheduled.getByRole('article').filter({ hasText: text });
    await expect(item).toBeVisible();
    await expect(item.locator('time')).toHaveAttribute('datetime', day);

    // The same day again: the server's 409, beside the date.
    await form.getByLabel('Task').fill('Another task for the same day');
    await form.getByLabel('Schedule for (UTC day, optional)').fill(day);
    await form.getByRole('button', { name: 'Add task' }).click();
    await expect(form.getByText(`Another task is already scheduled for ${day}.`)).toBeVisible();
    await form.getByLabel('Task').fill('');
    await form.getByLabel('Schedule for (UTC day, optional)').fill('');

    await reviewShot(page, 'admin-tasks', { fullPage: true });

    await item.getByRole('button', { name: 'Edit' }).click();
    const edit = item.getByRole('form');
    await expect(edit.getByLabel('Task')).toBeFocused();
    await edit.getByLabel('Task').fill(`${text} Then rest.`);
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toContainText('Saved the task for');
    const edited = scheduled.getByRole('article').filter({ hasText: `${text} Then rest.` });
    await expect(edited).toBeVisible();

    await page.setViewportSize({ width: 375, height: 740 });
    await expectNoSidewaysScroll(page, 'admin tasks at 375 px');
    await reviewShot(page, 'admin-tasks', { fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    await edited.getByRole('button', { name: 'Delete' }).click();
    await edited.getByRole('button', { name: 'Yes, delete' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Deleted' })).toContainText('Deleted the task for');
    await expect(scheduled.getByRole('article').filter({ hasText: text })).toHaveCount(0);
  });
});
