/**
 * The two ways a page gets its Content-Security-Policy (decision 008):
 * pages rendered per request allow inline scripts by the request's nonce,
 * which Next writes on every script it renders (proxy.ts); pages the page
 * cache serves allow them by hash, computed from the finished HTML.
 */
import { APP_SCRIPTS } from '../app-scripts/generated';
import { contentSecurityPolicy, nonceSource, type PolicySettings } from './content-security-policy';
import { pageScriptHashes } from './inline-scripts';

/**
 * Inline scripts the app writes itself (lib/app-scripts: the age gate's two scripts, the header's two, the player's
 * start button and the root layout's speculation rules, which the policy governs too). React gives them no nonce,
 * and reading the nonce in the layout would make every page render per request, so they go by hash everywhere.
 */
export const APP_INLINE_SCRIPTS: readonly string[] = APP_SCRIPTS.map((script) => script.text);

export function noncePolicy(nonce: string, settings: PolicySettings): string {
  return contentSecurityPolicy([nonceSource(nonce), ...APP_SCRIPTS.map((script) => script.hash)], settings);
}

/**
 * The policy of a finished page, rendered with `renderNonce` when Next rendered it for the fill; `onUnknown`
 * hears of inline scripts it leaves blocked (none, unless something injected one).
 */
export function hashPolicy(
  html: string,
  renderNonce: string,
  settings: PolicySettings,
  onUnknown: (scripts: string[]) => void,
): string {
  const { sources, unknown } = pageScriptHashes(html, { appScripts: APP_INLINE_SCRIPTS, renderNonce });
  if (unknown.length > 0) onUnknown(unknown);
  return contentSecurityPolicy(sources, settings);
}
