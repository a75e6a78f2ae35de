import type { APIRequestContext, Page } from '@playwright/test';

import { adminToken, verifiedMember, visitor } from './api';
import { expect } from './fixtures';

/** Today's UTC day, as the server counts daily tasks. */
export const utcToday = () => new Date().toISOString().slice(0, 10);

/** The next UTC midnight, in ms (what the countdown runs to). */
export function nextUtcMidnightMs(): number {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}`, ...visitor() });

/** A verified member made VIP for 30 days by the e2e admin (POST /api/admin/users/{id}/vip). */
export async function vipMember(request: APIRequestContext, prefix: string, admin?: string) {
  const member = await verifiedMember(request, prefix);
  const me = await request.get('/api/auth/me', { headers: bearer(member.token) });
  const { user } = (await me.json()) as { user: { _id: string } };
  const granted = await request.post(`/api/admin/users/${user._id}/vip`, {
    headers: bearer(admin ?? (await adminToken(request))),
    data: { days: 30 },
  });
  expect(granted.status(), await granted.text()).toBe(200);
  return member;
}

/**
 * Makes sure today has a scheduled task (the desktop and mobile runs share
 * the server: the first one creates it, a 409 means it is there) and returns
 * its text as members get it.
 */
export async function ensureTodaysTask(request: APIRequestContext, admin: string, description: string): Promise<string> {
  const created = await request.post('/api/admin/daily-tasks', {
    headers: bearer(admin),
    data: { description, scheduledFor: utcToday() },
  });
  expect([201, 409], await created.text()).toContain(created.status());
  const listed = await request.get('/api/admin/daily-tasks', { headers: bearer(admin) });
  const { today } = (await listed.json()) as { today: { task: { description: string } | null } };
  expect(today.task).not.toBeNull();
  return today.task!.description;
}

/** Opens a page as this member (token in local storage, as after a login) and waits until the session has been restored. */
export async function openAs(page: Page, member: { token: string }, path = '/') {
  await page.addInitScript((token) => window.localStorage.setItem('token', token), member.token);
  const restored = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/me');
  await page.goto(path);
  expect((await restored).status()).toBe(200);
  // The account area (header or mobile menu) has switched to the member's: the session is in the page.
  await expect(page.locator('.nav-account-member').first()).toBeAttached();
}

export const taskBanner = (page: Page) => page.getByRole('complementary', { name: /Today’s task|Unlock Daily Tasks with VIP/ });
