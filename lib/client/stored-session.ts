'use client';

import { STORAGE_KEYS } from '@/lib/storage-keys';

import { useStoredValue } from './browser-store';

/**
 * Whether this browser holds a login token (spec section 4: "logged out (no
 * stored token)"). Islands on cached public pages use it to pick what a
 * member sees; the server re-checks the token on every call that matters.
 */
export function useHasStoredToken(): boolean {
  return Boolean(useStoredValue('localStorage', STORAGE_KEYS.token));
}
