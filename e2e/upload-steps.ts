/** Steps the upload specs share: a new member on /upload, and the performer records of a solo video. */
import type { Page } from '@playwright/test';

import { unique, verificationLinkFor } from './api';
import { expect } from './fixtures';

const PASSWORD = 'orchid-velvet-77';

/** Registers, verifies and logs in a new member through the site, ending on /upload. */
export async function signInNewMember(page: Page): Promise<string> {
  const id = unique();
  const username = `uploader_${id}`;
  const email = `uploader-${id}@example.org`;
  await page.goto('/register');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByLabel('Date of birth').fill('1994-06-15');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('dialog', { name: 'Check your email' })).toBeVisible();
  await page.goto(await verificationLinkFor(email));
  await expect(page).toHaveURL('/email-verified');

  await page.goto(`/login?next=${encodeURIComponent('/upload')}`);
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL('/upload');
  await expect(page.getByRole('button', { name: 'Upload video' })).toBeVisible();
  return username;
}

/** "Who appears in this video?": only the uploader, recorded yesterday (decision 015). */
export async function declareOnlyMe(page: Page) {
  await page.getByLabel('Recording date').fill(new Date(Date.now() - 86_400_000).toISOString().slice(0, 10));
  await page.getByLabel('I appear in this video').check();
}
