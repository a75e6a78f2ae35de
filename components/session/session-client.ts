'use client';

/**
 * The session's calls to the API (login, two-factor, logout, the current user), loaded by SessionProvider with
 * `import()` when a stored token is found or a member acts: a visitor's page never loads them, nor the API client.
 */
import type { UserDto } from '@/lib/api-types';
import { ApiClientError, apiRequest, setAuthToken } from '@/lib/client/api-client';
import { readStorage, writeStorage } from '@/lib/client/browser-store';
import { STORAGE_KEYS } from '@/lib/storage-keys';

/** What the password step answers for a member with two-factor on (decision 018). */
export interface TwoFactorStep {
  twoFactorRequired: true;
  challenge: string;
  message: string;
}

export interface StartedSession {
  token: string;
  user: UserDto;
}

export { setAuthToken };

export function debug(...args: unknown[]): void {
  if (readStorage('localStorage', STORAGE_KEYS.debugMode) === 'true') console.debug('[session]', ...args);
}

export async function fetchCurrentUser(): Promise<UserDto> {
  const { user } = await apiRequest<{ user: UserDto }>('/api/auth/me');
  return user;
}

/** Sets or clears the auth header for `token`, and fetches the user when there is one. */
export async function restoreSession(token: string | null): Promise<{ token: string | null; user: UserDto | null }> {
  setAuthToken(token);
  if (!token) return { token: null, user: null };
  try {
    return { token, user: await fetchCurrentUser() };
  } catch (error) {
    console.error('Could not load the current user:', error);
    // A refused token (revoked, expired, account banned) is dead: forget it. A network error keeps it for the next try.
    if (error instanceof ApiClientError && (error.status === 401 || error.status === 403)) {
      writeStorage('localStorage', STORAGE_KEYS.token, null);
      writeStorage('localStorage', STORAGE_KEYS.username, null);
      setAuthToken(null);
      return { token: null, user: null };
    }
    return { token, user: null };
  }
}

/** Ends the session on the server while the token is still sent; a failure there is only logged. */
export async function serverLogout(): Promise<void> {
  try {
    await apiRequest('/api/auth/logout', { method: 'POST' });
  } catch (error) {
    debug('server logout failed', error);
  }
}

export const passwordStep = (email: string, password: string) =>
  apiRequest<StartedSession | TwoFactorStep>('/api/auth/login', { json: { email, password } });

export const codeStep = (challenge: string, code: string) =>
  apiRequest<StartedSession>('/api/auth/login/two-factor', { json: { challenge, code } });
