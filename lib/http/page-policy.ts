/**
 * The two ways a page gets its Content-Security-Policy (decision 008):
 * pages rendered per request allow inline scripts by the request's nonce,
 * which Next writes on every script it renders (proxy.ts); pages the page
 * cache serves allow them by hash, computed from the finished HTML.
 */
import { AGE_GATE_BOOT_SCRIPT, AGE_GATE_READY_SCRIPT } from '../../components/shell/age-gate-boot';
import { HEADER_BOOT_SCRIPT, HEADER_READY_SCRIPT } from '../../components/shell/header-script';
import { SPECULATION_RULES } from '../../components/shell/speculation-rules';
import { PLAYER_START_SCRIPT } from '../../components/videos/player-start-script';
import { contentSecurityPolicy, nonceSource, scriptHashSource, type PolicySettings } from './content-security-policy';
import { pageScriptHashes } from './inline-scripts';

/**
 * Inline scripts the app writes itself (the age gate's two scripts, the header's two, the player's start button and
 * the root layout's speculation rules, which the policy governs too). React gives them no nonce,
 * and reading the nonce in the layout would make every page render per request, so they go by hash everywhere.
 */
export const APP_INLINE_SCRIPTS: readonly string[] = [AGE_GATE_BOOT_SCRIPT, AGE_GATE_READY_SCRIPT, HEADER_BOOT_SCRIPT, HEADER_READY_SCRIPT, PLAYER_START_SCRIPT, SPECULATION_RULES];

export function noncePolicy(nonce: string, settings: PolicySettings): string {
  return contentSecurityPolicy([nonceSource(nonce), ...APP_INLINE_SCRIPTS.map(scriptHashSource)], settings);
}

/**
 * The policy of a finished page, rendered with `renderNonce` when Next rendered it for the fill; `onUnknown`
 * hears of inline scripts it leaves blocked (none, unless something injected one).
 */
export function hashPolicy(html: string, renderNonce: string, settings: PolicySettings, onUnknown: (scripts: string[]) => void): string {
  const { sources, unknown } = pageScriptHashes(html, { appScripts: APP_INLINE_SCRIPTS, renderNonce });
  if (unknown.length > 0) onUnknown(unknown);
  return contentSecurityPolicy(sources, settings);
}
