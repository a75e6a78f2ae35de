import 'server-only';

import { sealData, unsealData } from 'iron-session';

import { getSessionSecret } from '@/lib/config/server';

/**
 * What a session cookie and a bearer token carry: which session row, whose,
 * and the user's token version at login. Sealed (encrypted and signed) with
 * the session secret, so clients can neither read nor forge it.
 */
export interface SessionClaims {
  sid: string;
  uid: string;
  ver: number;
  /** Whether the user was an admin at login: only for proxy.ts's optimistic redirect; pages check the database. */
  adm?: boolean;
}

export const SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;

export function sealToken(claims: SessionClaims): Promise<string> {
  return sealData(claims, { password: getSessionSecret(), ttl: SESSION_TTL_SECONDS });
}

/** The claims of a token, or null when it is forged, tampered with, expired or malformed. */
export async function unsealToken(token: string): Promise<SessionClaims | null> {
  if (!token || token.length > 4096) return null;
  try {
    const data = await unsealData<Partial<SessionClaims>>(token, { password: getSessionSecret(), ttl: SESSION_TTL_SECONDS });
    if (typeof data.sid !== 'string' || typeof data.uid !== 'string' || typeof data.ver !== 'number') return null;
    return { sid: data.sid, uid: data.uid, ver: data.ver, adm: data.adm === true };
  } catch {
    return null;
  }
}
