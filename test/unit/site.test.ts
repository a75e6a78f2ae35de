import { canonicalTag, CATEGORIES, findCategory, searchHref, tagHref } from '@/lib/site';
import { splitTags } from '@/lib/validation/videos';
import { STORAGE_INVENTORY, STORAGE_KEYS } from '@/lib/storage-inventory';

describe('searchHref', () => {
  it('trims and encodes the query', () => {
    expect(searchHref('  sissy training  ')).toBe('/search?q=sissy%20training');
    expect(searchHref('a&b=c/"<tag>"')).toBe('/search?q=a%26b%3Dc%2F%22%3Ctag%3E%22');
    expect(searchHref('🦋 beta')).toBe(`/search?q=${encodeURIComponent('🦋 beta')}`);
  });

  it('ignores blank input', () => {
    expect(searchHref('')).toBeNull();
    expect(searchHref('   \t\n ')).toBeNull();
  });
});

describe('tags', () => {
  it('have one spelling, the one videos store, and one URL whatever the spelling', () => {
    expect(canonicalTag('  #Sissy Maid ')).toBe('sissy maid');
    expect(tagHref('#Sissy Maid')).toBe('/tag/sissy%20maid');
    expect(tagHref('a/b?c#d')).toBe('/tag/a%2Fb%3Fc%23d');
    expect(tagHref('</script >')).toBe('/tag/%3C%2Fscript%20%3E');
    // What uploads store is what the page is named after.
    for (const tag of splitTags('#Pink, MAID ,  café 🦋'))
      expect(decodeURIComponent(tagHref(tag).slice('/tag/'.length))).toBe(tag);
  });
});

describe('categories', () => {
  it('are exactly the spec’s three', () => {
    expect(CATEGORIES).toEqual(['Sissy', 'Beta', 'Censor']);
  });

  it('are found regardless of case, and unknown names are not', () => {
    expect(findCategory('sissy')).toBe('Sissy');
    expect(findCategory('CENSOR')).toBe('Censor');
    expect(findCategory('Alpha')).toBeUndefined();
    expect(findCategory('')).toBeUndefined();
  });
});

describe('storage inventory', () => {
  it('lists every key the code uses exactly once', () => {
    const names = STORAGE_INVENTORY.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual(Object.values(STORAGE_KEYS).sort());
  });
});
