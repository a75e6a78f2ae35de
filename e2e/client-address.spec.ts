import { unique } from './api';
import { expect, test } from './fixtures';

/**
 * Through the production server (scripts/serve.ts), which playwright.config.ts
 * starts with TRUST_PROXY=1: Playwright plays the one trusted proxy, so the
 * rightmost X-Forwarded-For entry is the client and everything left of it is
 * the client's own text.
 */
test.describe('the client address scripts/serve.ts stamps on every request', () => {
  const someClient = () => `10.251.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;

  test('forged X-Forwarded-For entries and a forged internal header do not escape the per-address login budget', async ({
    request,
  }) => {
    const client = someClient();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 16; attempt += 1) {
      const response = await request.post('/api/auth/login', {
        data: { email: `spray-${unique()}@example.org`, password: 'not-the-password' },
        headers: { 'x-forwarded-for': `203.0.113.${attempt}, ${client}`, 'x-chrysalis-client-address': `192.0.2.${attempt}` },
      });
      statuses.push(response.status());
    }
    expect(statuses).toEqual([...Array(15).fill(401), 429]);

    // Another client behind the same proxy has a budget of its own.
    const neighbour = await request.post('/api/auth/login', {
      data: { email: `spray-${unique()}@example.org`, password: 'not-the-password' },
      headers: { 'x-forwarded-for': someClient() },
    });
    expect(neighbour.status()).toBe(401);
  });
});
