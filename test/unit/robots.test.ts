/**
 * @jest-environment node
 */
describe('robots.txt', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('names the sitemap index and no Host (a host name only some crawlers read, never a URL)', async () => {
    process.env.SITE_URL = 'https://chrysalis.example';
    const { default: robots } = await import('@/app/robots');
    const rules = robots();
    expect(rules.sitemap).toBe('https://chrysalis.example/sitemap.xml');
    expect(rules).not.toHaveProperty('host');
    // Members' pages are closed to crawlers, the sitemap's files are not.
    const [rule] = [rules.rules].flat();
    expect(rule!.disallow).toEqual(expect.arrayContaining(['/profile/', '/settings', '/notifications']));
    expect([rule!.disallow].flat().some((path) => '/sitemap/videos-0.xml'.startsWith(path!))).toBe(false);
  });
});
