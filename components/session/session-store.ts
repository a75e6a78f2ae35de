import type { UserDto } from '@/lib/api-types';

/** What the session is at a moment: restoring, a visitor, or a member with their token. */
export interface SessionState {
  /** True until the start-up restore has finished, whether or not it succeeded. */
  loading: boolean;
  user: UserDto | null;
  token: string | null;
}

/** The state the server renders with, and hydration reads. */
export const SERVER_SESSION: SessionState = Object.freeze({ loading: true, user: null, token: null });

export interface SessionStore {
  get(): SessionState;
  set(change: Partial<SessionState> | ((state: SessionState) => Partial<SessionState>)): void;
  subscribe(listener: () => void): () => void;
}

/**
 * The session's current state, outside React, so the provider's actions read it without waiting for a render; the
 * provider mirrors it into React state (SessionProvider.tsx), which is what components read.
 */
export function createSessionStore(initial: SessionState = SERVER_SESSION): SessionStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(change) {
      const next = { ...state, ...(typeof change === 'function' ? change(state) : change) };
      if (next.loading === state.loading && next.user === state.user && next.token === state.token) return;
      state = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
