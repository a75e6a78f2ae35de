/** Steps the upload specs share: a new member on /upload, and the performer records of a solo video. */
import { request as playwrightRequest, type Page } from '@playwright/test';

import { BASE_URL, logInThroughForm, verifiedMember } from './api';
import { expect } from './fixtures';

/**
 * A new member, not yet identity-verified, logged in through the form and on /upload. They are registered and
 * verified through the API (from a request context of their own, so no session cookie reaches the page): the
 * sign-up form has its own tests (accounts.spec.ts), and going through it here cost every upload test a
 * registration page, its email link and their page loads (decision 048).
 */
export async function signInNewMember(page: Page): Promise<string> {
  const api = await playwrightRequest.newContext({ baseURL: BASE_URL });
  try {
    const member = await verifiedMember(api, 'uploader', { identity: false });
    await logInThroughForm(page, member.email, member.password, '/upload');
    await expect(page.getByRole('button', { name: 'Upload video' })).toBeVisible();
    return member.username;
  } finally {
    await api.dispose();
  }
}

/** "Who appears in this video?": only the uploader, recorded yesterday (decision 015). */
export async function declareOnlyMe(page: Page) {
  await page.getByLabel('Recording date').fill(new Date(Date.now() - 86_400_000).toISOString().slice(0, 10));
  await page.getByLabel('I appear in this video').check();
}
