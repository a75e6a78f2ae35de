/**
 * @jest-environment node
 */
describe('security.txt', () => {
  const saved = { ...process.env };
  beforeEach(() => jest.resetModules()); // the configuration is read once per module instance
  afterEach(() => {
    process.env = { ...saved };
  });

  it('names the operator as the contact, with an expiry within a year (RFC 9116)', async () => {
    process.env.SITE_URL = 'https://chrysalis.example';
    process.env.OPERATOR_EMAIL = 'security@chrysalis.example';
    const { GET } = await import('@/app/security.txt/route');
    const response = GET();
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).toContain('Contact: mailto:security@chrysalis.example\n');
    expect(text).toContain('Canonical: https://chrysalis.example/.well-known/security.txt\n');
    const expires = Date.parse(/^Expires: (.*)$/m.exec(text)![1]!);
    expect(expires - Date.now()).toBeGreaterThan(0);
    expect(expires - Date.now()).toBeLessThan(365 * 24 * 60 * 60 * 1000);
  });

  it('is not published while OPERATOR_EMAIL is unset', async () => {
    delete process.env.OPERATOR_EMAIL;
    const { GET } = await import('@/app/security.txt/route');
    expect(GET().status).toBe(404);
  });
});
