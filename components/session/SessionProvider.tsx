'use client';

import { useRouter } from 'next/navigation';
import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';

import type { UserDto } from '@/lib/api-types';
import { readStorage, writeStorage } from '@/lib/client/browser-store';
import { onClientEvent } from '@/lib/client/client-events';
import { STORAGE_KEYS } from '@/lib/storage-keys';

import type { StartedSession, TwoFactorStep } from './session-client';

export type { TwoFactorStep } from './session-client';

/** The user as GET /api/auth/me and login return it. */
export type SessionUser = UserDto;

export const SESSION_RECHECK_MS = 60_000;

interface SessionActions {
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

/** What the session is at a moment: restoring, a visitor, or a member with their token. */
interface SessionState {
  /** True until the start-up restore has finished, whether or not it succeeded. */
  loading: boolean;
  user: SessionUser | null;
  token: string | null;
}

/** The state the server renders with, and hydration reads. */
const SERVER_SESSION: SessionState = Object.freeze({ loading: true, user: null, token: null });

type SessionChange = Partial<SessionState> | ((state: SessionState) => Partial<SessionState>);

type SessionValue = SessionState & SessionActions;

type SessionClient = typeof import('./session-client');

/** The session's API calls and the API client: loaded for a stored token or a member's action, never for a visitor's page. */
const loadClient = (): Promise<SessionClient> => import('./session-client');

/** Never changes once the provider is mounted. */
const SessionContext = createContext<{ actions: SessionActions } | null>(null);
/** Apart from the actions: a change re-renders the components that read the session, not the tree under the provider. */
const SessionStateContext = createContext<SessionState>(SERVER_SESSION);

/**
 * The session of spec section 4: loading at start; logged out without a
 * stored token; logged in with token and user. Public pages are rendered on
 * the server, so the provider never hides them: member-only islands read
 * `loading` and render only after it ends (see SessionGate).
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const router = useRouter();
  // React state, so that the start-up restore can reach its readers as a transition, rendered in slices (decision 042);
  // a member's own actions (login, logout) are ordinary updates. A change that changes nothing renders nothing.
  const [state, setState] = useState(SERVER_SESSION);
  const change = useCallback(
    (update: SessionChange) =>
      setState((current) => {
        const next = { ...current, ...(typeof update === 'function' ? update(current) : update) };
        return next.loading === current.loading && next.user === current.user && next.token === current.token ? current : next;
      }),
    [],
  );
  const { user } = state;
  const setUser = useCallback((next: SessionUser | null) => change({ user: next }), [change]);

  const clearLocal = useCallback(
    (client: SessionClient) => {
      writeStorage('localStorage', STORAGE_KEYS.token, null);
      writeStorage('localStorage', STORAGE_KEYS.username, null);
      client.setAuthToken(null);
      change({ token: null, user: null });
    },
    [change],
  );

  /** Ends the session here and on the server; failure on the server must not keep anyone logged in locally. */
  // The server call goes first (while the token is still sent) so the session cookie is gone by the time the page says "logged out".
  // A logout answered 401/403 raises the very event that triggers a logout: one at a time, or it would loop.
  const ending = useRef(false);
  const endSession = useCallback(async () => {
    if (ending.current) return;
    ending.current = true;
    const client = await loadClient().catch((error: unknown) => {
      ending.current = false;
      throw error;
    });
    try {
      await client.serverLogout();
    } finally {
      clearLocal(client);
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

  // Start-up: restore from the stored token; loading ends whether or not that works. Without one, nothing loads.
  useEffect(() => {
    let live = true;
    const stored = readStorage('localStorage', STORAGE_KEYS.token);
    const restored = stored
      ? loadClient()
          .then((client) => client.restoreSession(stored))
          .catch(() => ({ token: stored, user: null }))
      : Promise.resolve({ token: null, user: null });
    void restored.then((session) => {
      if (live) startTransition(() => change({ token: session.token, user: session.user, loading: false }));
    });
    return () => {
      live = false;
    };
  }, [change]);

  // The spec's automatic logouts: 401 elsewhere than /api/auth/me, banned, or admin-only.
  useEffect(
    () =>
      onClientEvent((event) => {
        if (event.type === 'unauthorized' || event.type === 'forbidden') {
          void loadClient().then((client) => client.debug('logging out after', event));
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
      loadClient()
        .then((client) => client.fetchCurrentUser())
        .then(setUser)
        .catch((error: unknown) => console.error('Could not refresh the current user:', error));
    }, SESSION_RECHECK_MS);
    return () => clearInterval(timer);
  }, [user, setUser]);

  const startSession = useCallback(
    (client: SessionClient, result: StartedSession) => {
      writeStorage('localStorage', STORAGE_KEYS.token, result.token);
      writeStorage('localStorage', STORAGE_KEYS.username, result.user.username);
      client.setAuthToken(result.token);
      change({ token: result.token, user: result.user });
      return result.user;
    },
    [change],
  );

  const login = useCallback(
    async (email: string, password: string) => {
      const client = await loadClient();
      try {
        const result = await client.passwordStep(email, password);
        // Two-factor on: no session yet; the form asks for the code.
        if ('twoFactorRequired' in result) {
          clearLocal(client);
          return result;
        }
        return startSession(client, result);
      } catch (error) {
        clearLocal(client);
        throw error;
      }
    },
    [clearLocal, startSession],
  );

  const completeTwoFactor = useCallback(
    async (challenge: string, code: string) => {
      const client = await loadClient();
      return startSession(client, await client.codeStep(challenge, code));
    },
    [startSession],
  );

  const refreshUser = useCallback(async () => {
    if (!readStorage('localStorage', STORAGE_KEYS.token)) return;
    const client = await loadClient();
    setUser(await client.fetchCurrentUser());
  }, [setUser]);

  const updateUser = useCallback(
    (partial: Partial<SessionUser>) => change(({ user: current }) => ({ user: current ? { ...current, ...partial } : current })),
    [change],
  );

  const value = useMemo(
    () => ({ actions: { login, completeTwoFactor, logout, refreshUser, updateUser } }),
    [login, completeTwoFactor, logout, refreshUser, updateUser],
  );
  return (
    <SessionContext.Provider value={value}>
      <SessionStateContext.Provider value={state}>{children}</SessionStateContext.Provider>
    </SessionContext.Provider>
  );
}

/** The session now, and what a member can do with it; a component re-renders when the session changes. */
export function useSession(): SessionValue {
  const context = useContext(SessionContext);
  if (!context) throw new Error('useSession must be used within a SessionProvider');
  const state = useContext(SessionStateContext);
  return useMemo(() => ({ ...state, ...context.actions }), [state, context.actions]);
}

/** Renders its children only once the session has finished loading (spec: children wait for the restore). */
export function SessionGate({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  const { loading } = useSession();
  return <>{loading ? fallback : children}</>;
}
