/**
 * The member's own pages that emails, notifications and docs link to (issue 36): Settings with its sections as
 * anchors, Security (a page of its own, where admins are sent to enrol two-factor, decision 018) and
 * Notifications. The settings dialog and the bell's panel stay the quick way in; these are the addresses.
 */
export const ACCOUNT_PATHS = {
  settings: '/settings',
  security: '/settings/security',
  /** Download my data, decisions about you, delete account. */
  data: '/settings#data',
  notifications: '/notifications',
} as const;
