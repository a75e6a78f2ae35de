import { readFileSync } from 'node:fs';

import * as generated from '@/lib/app-scripts/generated';
import { scriptHashSource } from '@/lib/http/content-security-policy';

import { GENERATED_FILE, generateAppScripts } from '../../scripts/lib/app-scripts';

/** The inline scripts are compiled from lib/app-scripts/source/ into a committed file (decision 044). */
describe('lib/app-scripts/generated.ts', () => {
  it('is what the sources compile to now: run `npm run app-scripts` after editing them', () => {
    expect(readFileSync(GENERATED_FILE, 'utf8')).toBe(generateAppScripts());
  });

  it("lists every script once, each with its text's CSP hash", () => {
    const constants = Object.values(generated).filter((value) => typeof value === 'object' && 'text' in value);
    expect(new Set(generated.APP_SCRIPTS)).toEqual(new Set(constants));
    expect(generated.APP_SCRIPTS).toHaveLength(constants.length);
    for (const { text, hash } of generated.APP_SCRIPTS) expect(hash).toBe(scriptHashSource(text));
  });
});
