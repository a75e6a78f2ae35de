/**
 * Every cookie and browser-storage key Chrysalis sets, in one place.
 *
 * Code that reads or writes one of these imports its name from here, and the
 * Cookie Policy renders its table from this list, so the policy cannot drift
 * from what the site really stores. The e2e suite checks that a browsing
 * session leaves no cookie or storage key that is missing here.
 */
import { STORAGE_KEYS } from './storage-keys';

export { STORAGE_KEYS };

export type StorageKind = 'cookie' | 'sessionStorage' | 'localStorage';

export interface StorageEntry {
  /** Exact name, or a prefix when `isPrefix` is set. */
  name: string;
  isPrefix?: boolean;
  kind: StorageKind;
  /** Who sets it: always the site itself; Chrysalis uses no third-party cookies. */
  party: 'first-party';
  /** Strictly necessary entries need no consent; the rest are preferences. */
  category: 'strictly necessary' | 'preference';
  purpose: string;
  /** Human-readable lifetime. */
  lifetime: string;
}

export const STORAGE_INVENTORY: readonly StorageEntry[] = [
  {
    name: STORAGE_KEYS.sessionCookie,
    kind: 'cookie',
    party: 'first-party',
    category: 'strictly necessary',
    purpose:
      'Keeps you signed in after you log in and lets the server check which pages you may open. Sealed and encrypted, not readable by scripts (HttpOnly), only sent to this site (SameSite=Lax), and only over HTTPS when the site runs on HTTPS.',
    lifetime: '30 days, or until you log out',
  },
  {
    name: STORAGE_KEYS.ageConfirmed,
    kind: 'sessionStorage',
    party: 'first-party',
    category: 'strictly necessary',
    purpose: 'Remembers that you confirmed you are 18 or older, so the age gate is not shown again on every page.',
    lifetime: 'Until you close the browser tab or window',
  },
  {
    name: STORAGE_KEYS.token,
    kind: 'localStorage',
    party: 'first-party',
    category: 'strictly necessary',
    purpose: 'Your login token, sent with requests to the site’s API so the app knows who you are.',
    lifetime: 'Until you log out',
  },
  {
    name: STORAGE_KEYS.username,
    kind: 'localStorage',
    party: 'first-party',
    category: 'strictly necessary',
    purpose: 'Your username, so the app can show your account while it reloads your profile.',
    lifetime: 'Until you log out',
  },
  {
    name: STORAGE_KEYS.debugMode,
    kind: 'localStorage',
    party: 'first-party',
    category: 'preference',
    purpose: 'Turns on extra diagnostic logging in your browser console when set to "true". Never set by the site on its own.',
    lifetime: 'Until you remove it',
  },
  {
    name: STORAGE_KEYS.videoCachePrefix,
    isPrefix: true,
    kind: 'localStorage',
    party: 'first-party',
    category: 'preference',
    purpose: 'A short-lived copy of the video lists you just saw, so pages show them instantly while fresh ones load.',
    lifetime: '5 minutes, then discarded',
  },
  {
    name: STORAGE_KEYS.watchProgress,
    kind: 'localStorage',
    party: 'first-party',
    category: 'preference',
    purpose:
      'For visitors who are not logged in: where you stopped in the last 200 videos you played, so the player can continue there. It stays in your browser and is never sent to us.',
    lifetime: 'Until you remove it (older videos drop off as you watch new ones)',
  },
  // The player's controls (media-chrome, decision 049) keep the viewer's sound settings.
  {
    name: STORAGE_KEYS.playerVolume,
    kind: 'localStorage',
    party: 'first-party',
    category: 'preference',
    purpose: 'The player’s volume as you last set it, so the next video plays at the same level.',
    lifetime: 'Until you remove it',
  },
  {
    name: STORAGE_KEYS.playerMuted,
    kind: 'localStorage',
    party: 'first-party',
    category: 'preference',
    purpose: 'Whether you last muted the player, so the next video starts the same way.',
    lifetime: 'Until you remove it',
  },
  {
    name: STORAGE_KEYS.playerCaptionsLanguage,
    kind: 'localStorage',
    party: 'first-party',
    category: 'preference',
    purpose: 'The captions language you last chose in the player.',
    lifetime: 'Until you remove it',
  },
];
