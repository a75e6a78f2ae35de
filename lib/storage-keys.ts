/**
 * Names of every cookie and browser-storage key the site sets. Kept apart
 * from the inventory (lib/storage-inventory.ts, with the descriptions the
 * Cookie Policy shows) so client code ships the names only.
 */
export const STORAGE_KEYS = {
  sessionCookie: 'chrysalis_session',
  ageConfirmed: 'chrysalis.ageConfirmed',
  token: 'token',
  username: 'username',
  debugMode: 'debugMode',
  videoCachePrefix: 'chrysalis.videoCache.',
  watchProgress: 'chrysalis.watchProgress',
  // Set by the player's controls (media-chrome, decision 049), under its own names.
  playerVolume: 'media-chrome-pref-volume',
  playerMuted: 'media-chrome-pref-muted',
  playerCaptionsLanguage: 'media-chrome-pref-subtitles-lang',
} as const;
