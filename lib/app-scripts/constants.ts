/**
 * The constants the inline scripts' functions are called with (lib/app-scripts/source/): the generator writes them
 * into each script's text (scripts/lib/app-scripts.ts), and ShellInBrowser passes them when it runs the same functions.
 * Passed in rather than imported by the sources: a bundled import would carry its whole module into every page.
 */
import { MOBILE_MENU_MAX_WIDTH } from '../site';
import { STORAGE_KEYS } from '../storage-keys';

/** Where a browser session's answer to the age gate is kept (sessionStorage). */
export const AGE_CONFIRMED_KEY = STORAGE_KEYS.ageConfirmed;

/** Past the mobile menu's breakpoint (the CSS's `max-width: 1023px`), where its toggle is hidden. */
export const WIDE_HEADER_MEDIA = `(min-width: ${MOBILE_MENU_MAX_WIDTH + 1}px)`;
