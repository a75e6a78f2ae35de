'use client';

import { useSyncExternalStore } from 'react';

/**
 * Reads a sessionStorage/localStorage key as React state. The server snapshot
 * is always null, so server HTML and the first client render agree; the real
 * value arrives right after hydration. Storage errors (private mode, disabled
 * storage) read as null rather than breaking the page.
 */
type Area = 'sessionStorage' | 'localStorage';

const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  // The storage event covers other tabs; notifyStorageChange() covers this one.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

export function readStorage(area: Area, key: string): string | null {
  try {
    return window[area].getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(area: Area, key: string, value: string | null): void {
  try {
    if (value === null) window[area].removeItem(key);
    else window[area].setItem(key, value);
  } catch {
    // Storage can be unavailable; the in-memory UI state still updates below.
  }
  listeners.forEach((listener) => listener());
}

export function useStoredValue(area: Area, key: string): string | null {
  return useSyncExternalStore(
    subscribe,
    () => readStorage(area, key),
    () => null,
  );
}
