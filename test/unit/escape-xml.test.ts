import { escapeXml } from '@/lib/html';

describe('escapeXml', () => {
  it('drops what XML cannot hold and escapes markup, keeping emoji whole', () => {
    expect(escapeXml('a\u0000b\u0008c\uFFFE</script >\t"&\'🦋')).toBe('abc&lt;/script &gt;\t&quot;&amp;&#39;🦋');
  });
});
