'use client';

import { useRouter } from 'next/navigation';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

import type { UserDto } from '@/lib/api-types';
import { ApiClientError, apiRequest, onClientEvent, setAuthToken } from '@/lib/client/http';
import { readStorage, writeStorage } from '@/lib/client/browser-store';
import { STORAGE_KEYS } from '@/lib/storage-keys';

/** The user as GET /api/auth/me and login return it. */
export type SessionUser = UserDto;

export const SESSION_RECHECK_MS = 60_000;

interface SessionValue {
  /** True until the start-up restore has finished, whether or not it succeeded. */
  loading: boolean;
  user: SessionUser | null;
  token: string | null;
  /** The password step: the member, logged in; or, with two-factor on, the challenge for completeTwoFactor(). */
  login(email: string, password: string): Promise<SessionUser | TwoFactorStep>;
  /** The code step of a login with two-factor on: a 6-digit code or a recovery code. */
  completeTwoFactor(challenge: string, code: string): Promise<SessionUser>;
  /** Ends the session, then goes home (or to `to`: Security settings send an admin to log in again with a code). */
  logout(to?: string): Promise<void>;
  /** Re-fetches the current user; does nothing without a stored token. */
  refreshUser(): Promise<void>;
  /** Merges a partial update into the current user locally. */
  updateUser(partial: Partial<SessionUser>): void;
}

/** What the password step answers for a member with two-factor on (decision 018). */
export interface TwoFactorStep {
  twoFactorRequired: true;
  challenge: string;
  message: string;
}

const SessionContext = createContext<SessionValue | null>(null);

const debug = (...args: unknown[]) => {
  if (readStorage('localStorage', STORAGE_KEYS.debugMode) === 'true') console.debug('[session]', ...args);
};

async function fetchCurrentUser(): Promise<SessionUser> {
  const { user } = await apiRequest<{ user: SessionUser }>('/api/auth/me');
  return user;
}

/** Reads the stored token, sets or clears the auth header, and fetches the user when there is a token. */
async function restoreSession(): Promise<{ token: string | null; user: SessionUser | null }> {
  const token = readStorage('localStorage', STORAGE_KEYS.token);
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

/**
 * The session of spec section 4: loading at start; logged out without a
 * stored token; logged in with token and user. Public pages are rendered on
 * the server, so the provider never hides them: member-only islands read
 * `loading` and render only after it ends (see SessionGate).
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const router = useRouter();
  const [loading, setLoading] = useState(true);
  const [user, setUser] = useState<SessionUser | null>(null);
  const [token, setToken] = useState<string | null>(null);

  const clearLocal = useCallback(() => {
    writeStorage('localStorage', STORAGE_KEYS.token, null);
    writeStorage('localStorage', STORAGE_KEYS.username, null);
    setAuthToken(null);
    setToken(null);
    setUser(null);
  }, []);

  /** Ends the session here and on the server; failure on the server must not keep anyone logged in locally. */
  // The server call goes first (while the token is still sent) so the session cookie is gone by the time the page says "logged out".
  // A logout answered 401/403 raises the very event that triggers a logout: one at a time, or it would loop.
  const ending = useRef(false);
  const endSession = useCallback(async () => {
    if (ending.current) return;
    ending.current = true;
    try {
      await apiRequest('/api/auth/logout', { method: 'POST' });
    } catch (error) {
      debug('server logout failed', error);
    } finally {
      clearLocal();
      ending.current = false;
    }
  }, [clearLocal]);

  /** The member's own Logout: ends the session, then goes home (or to `to`, a path of this site). */
  const logout = useCallback(
    async (to = '/') => {
      await endSession();
      router.push(to);
    },
    [endSession, router],
  );

  // Automatic logouts clear the session but leave the visitor where they are (a failed login stays on the form).
  const endSessionRef = useRef(endSession);
  useEffect(() => {
    endSessionRef.current = endSession;
  }, [endSession]);

  // Start-up: restore from the stored token; loading ends whether or not that works.
  useEffect(() => {
    let live = true;
    restoreSession().then((restored) => {
      if (!live) return;
      setToken(restored.token);
      setUser(restored.user);
      setLoading(false);
    });
    return () => {
      live = false;
    };
  }, []);

  // The spec's automatic logouts: 401 elsewhere than /api/auth/me, banned, or admin-only.
  useEffect(
    () =>
      onClientEvent((event) => {
        if (event.type === 'unauthorized' || event.type === 'forbidden') {
          debug('logging out after', event);
          void endSessionRef.current();
        }
      }),
    [],
  );

  // While logged in, re-check every 60 s; a token removed meanwhile logs out.
  useEffect(() => {
    if (!user) return;
    const timer = setInterval(() => {
      if (!readStorage('localStorage', STORAGE_KEYS.token)) {
        void endSessionRef.current();
        return;
      }
      fetchCurrentUser()
        .then(setUser)
        .catch((error: unknown) => console.error('Could not refresh the current user:', error));
    }, SESSION_RECHECK_MS);
    return () => clearInterval(timer);
  }, [user]);

  const startSession = useCallback((result: { token: string; user: SessionUser }) => {
    writeStorage('localStorage', STORAGE_KEYS.token, result.token);
    writeStorage('localStorage', STORAGE_KEYS.username, result.user.username);
    setAuthToken(result.token);
    setToken(result.token);
    setUser(result.user);
    return result.user;
  }, []);

  const login = useCallback(
    async (email: string, password: string) => {
      try {
        const result = await apiRequest<{ token: string; user: SessionUser } | TwoFactorStep>('/api/auth/login', { json: { email, password } });
        // Two-factor on: no session yet; the form asks for the code.
        if ('twoFactorRequired' in result) {
          clearLocal();
          return result;
        }
        return startSession(result);
      } catch (error) {
        clearLocal();
        throw error;
      }
    },
    [clearLocal, startSession],
  );

  const completeTwoFactor = useCallback(
    async (challenge: string, code: string) => startSession(await apiRequest<{ token: string; user: SessionUser }>('/api/auth/login/two-factor', { json: { challenge, code } })),
    [startSession],
  );

  const refreshUser = useCallback(async () => {
    if (!readStorage('localStorage', STORAGE_KEYS.token)) return;
    setUser(await fetchCurrentUser());
  }, []);

  const updateUser = useCallback((partial: Partial<SessionUser>) => setUser((current) => (current ? { ...current, ...partial } : current)), []);

  const value = useMemo<SessionValue>(
    () => ({ loading, user, token, login, completeTwoFactor, logout, refreshUser, updateUser }),
    [loading, user, token, login, completeTwoFactor, logout, refreshUser, updateUser],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used within a SessionProvider');
  return value;
}

/** Renders its children only once the session has finished loading (spec: children wait for the restore). */
export function SessionGate({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  const { loading } = useSession();
  return <>{loading ? fallback : children}</>;
}
