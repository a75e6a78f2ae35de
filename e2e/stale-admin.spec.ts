import { adminToken, BASE_URL, verifiedMember } from './api';
import { expect, test } from './fixtures';

/**
 * Finding 2 of the security review: admin pages were guarded only by their
 * layout, and a client navigation (an RSC request whose router state already
 * holds the admin layout) does not run the layout again. So a demoted admin,
 * or one who had logged out, still got /admin/members (every member's email)
 * as an RSC payload with their old cookie. Now each admin page gets its data
 * from services that check the caller, so the same request gets nothing.
 */

/** The router state of a browser that is on /admin already: navigating within it skips the admin layout. */
const ON_ADMIN_DASHBOARD = encodeURIComponent(JSON.stringify(['', { children: ['admin', { children: ['__PAGE__', {}] }] }, null, null, true]));

/** A client navigation to an admin page, as the browser's router sends it, with only a session cookie. */
async function navigate(path: string, cookie: string) {
  const response = await fetch(`${BASE_URL}${path}`, {
    headers: { cookie: `chrysalis_session=${cookie}`, rsc: '1', 'next-router-state-tree': ON_ADMIN_DASHBOARD },
    redirect: 'manual',
  });
  return { status: response.status, body: await response.text() };
}

const ADMIN_PAGES = (memberId: string) => ['/admin/members', `/admin/members/${memberId}`, '/admin/audit', '/admin/payments', '/admin/reports', '/admin'];

test.describe('admin pages with a stale admin cookie', () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) <= 1023, 'server answers only: runs once, in the desktop project');

  for (const how of ['demoted', 'logged out'] as const) {
    test(`an admin who was ${how} gets nothing from any admin page, RSC or not`, async ({ request }) => {
      const chief = await adminToken(request);
      const deputy = await verifiedMember(request, 'deputy');
      const bystander = await verifiedMember(request, 'bystander');
      const me = await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${bystander.token}` } });
      const bystanderId = ((await me.json()) as { user: { _id: string } }).user._id;
      const deputyId = ((await (await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${deputy.token}` } })).json()) as { user: { _id: string } }).user._id;

      const promoted = await request.post(`/api/admin/users/${deputyId}/admin`, { headers: { Authorization: `Bearer ${chief}` } });
      expect(promoted.status(), await promoted.text()).toBe(200);
      // A fresh login, so the sealed cookie carries the admin flag as a real admin's does.
      const login = await request.post('/api/auth/login', { data: { email: deputy.email, password: deputy.password } });
      const cookie = ((await login.json()) as { token: string }).token;

      // While an admin, the same request shows the members' emails: the probe reaches the page's data.
      const before = await navigate('/admin/members', cookie);
      expect(before.status).toBe(200);
      expect(before.body).toContain(bystander.email);

      if (how === 'demoted') {
        const demoted = await request.delete(`/api/admin/users/${deputyId}/admin`, { headers: { Authorization: `Bearer ${chief}` } });
        expect(demoted.status(), await demoted.text()).toBe(200);
      } else {
        const out = await request.post('/api/auth/logout', { headers: { Authorization: `Bearer ${cookie}` } });
        expect(out.status()).toBe(200);
      }

      for (const path of ADMIN_PAGES(bystanderId)) {
        for (const rsc of [true, false]) {
          const answer = rsc
            ? await navigate(path, cookie)
            : await fetch(`${BASE_URL}${path}`, { headers: { cookie: `chrysalis_session=${cookie}` }, redirect: 'manual' }).then(async (r) => ({ status: r.status, body: await r.text() }));
          expect(answer.body, `${path} (${rsc ? 'RSC' : 'document'})`).not.toContain(bystander.email);
          expect(answer.body, `${path} (${rsc ? 'RSC' : 'document'})`).not.toContain(deputy.email);
          expect(answer.status, `${path} (${rsc ? 'RSC' : 'document'})`).not.toBe(500);
        }
      }
    });
  }
});
