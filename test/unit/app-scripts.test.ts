import { readFileSync } from 'node:fs';

import * as generated from '@/lib/app-scripts/generated';
import { scriptHashSource } from '@/lib/front/content-security-policy';

import { GENERATED_FILE, generateAppScripts } from '../../scripts/lib/app-scripts';

/** The inline scripts are compiled from lib/app-scripts/source/ into a committed file (decision 044). */
describe('lib/app-scripts/generated.ts', () => {
  it('is what the sources compile to now: run `npm run app-scripts` after editing them', () => {
    expect(readFileSync(GENERATED_FILE, 'utf8')).toBe(generateAppScripts());
  });

  it("gives every script its text's CSP hash, and lists those of the site's pages once (the embed player's is its page's own)", () => {
    const scripts = Object.values(generated).filter((value) => typeof value === 'object' && 'text' in value);
    for (const { text, hash } of scripts) expect(hash).toBe(scriptHashSource(text));
    const onSitePages = scripts.filter((script) => script !== generated.EMBED_PLAYER_SCRIPT);
    expect(new Set(generated.APP_SCRIPTS)).toEqual(new Set(onSitePages));
    expect(generated.APP_SCRIPTS).toHaveLength(onSitePages.length);
  });
});
