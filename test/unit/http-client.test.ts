import { onClientEvent, type ClientEvent } from '@/lib/client/client-events';
import { apiRequest, ApiClientError, countryFromHtml, rewriteLocalUrl, setAuthToken } from '@/lib/client/api-client';
import { serverMessage } from '@/components/account/form-parts';

import { scriptedServer } from '../helpers/scripted-server';

describe('local development addresses', () => {
  it('rewrites localhost and LAN addresses on port 5000 to the API base, nothing else', () => {
    expect(rewriteLocalUrl('http://localhost:5000/api/videos', 'https://api.example')).toBe('https://api.example/api/videos');
    expect(rewriteLocalUrl('http://192.168.1.20:5000/embed/abc', 'https://api.example')).toBe('https://api.example/embed/abc');
    expect(rewriteLocalUrl('http://10.0.0.5:5000', 'https://api.example')).toBe('https://api.example');
    expect(rewriteLocalUrl('http://localhost:3000/x', 'https://api.example')).toBe('http://localhost:3000/x');
    expect(rewriteLocalUrl('https://cdn.example:5000/x', 'https://api.example')).toBe('https://cdn.example:5000/x');
  });

  it('reads the country code from a regional-denial page', () => {
    expect(countryFromHtml('<main id="access-denied" data-country="GB">')).toBe('GB');
    expect(countryFromHtml('<p>Access denied</p>')).toBeNull();
  });
});

describe('general client', () => {
  it('sends the bearer token, and reports a 401 elsewhere than the current-user path, but not on it', async () => {
    const server = await scriptedServer([{ status: 401, body: '{"message":"Please log in to continue."}' }]);
    const events: ClientEvent[] = [];
    const stop = onClientEvent((event) => events.push(event));
    try {
      setAuthToken('abc');
      await expect(apiRequest(`${server.url}/api/auth/me`)).rejects.toBeInstanceOf(ApiClientError);
      expect(events).toEqual([]);
      await expect(apiRequest(`${server.url}/api/notifications`)).rejects.toMatchObject({ status: 401 });
      expect(events).toEqual([{ type: 'unauthorized', path: `${server.url}/api/notifications` }]);
      expect(server.seen.find((r) => r.method === 'GET')!.headers.authorization).toBe('Bearer abc');
    } finally {
      stop();
      setAuthToken(null);
      await server.close();
    }
  });

  it('reports a ban, an admin refusal and a regional denial, and still throws', async () => {
    const server = await scriptedServer([
      { status: 403, body: '{"message":"Account is banned"}' },
      { status: 403, body: '{"message":"Forbidden: Admin access required"}' },
      { status: 403, body: '<main data-country="DE">Access Denied</main>', type: 'text/html' },
      { status: 403, body: '{"message":"Something else"}' },
    ]);
    const events: ClientEvent[] = [];
    const stop = onClientEvent((event) => events.push(event));
    try {
      for (let i = 0; i < 4; i += 1) await expect(apiRequest(`${server.url}/api/x`)).rejects.toMatchObject({ status: 403 });
      expect(events).toEqual([
        { type: 'forbidden', message: 'Account is banned' },
        { type: 'forbidden', message: 'Forbidden: Admin access required' },
        { type: 'regionBlocked', countryCode: 'DE' },
      ]);
    } finally {
      stop();
      await server.close();
    }
  });
});

describe('messages when the server wrote none (spec section 8 fallbacks)', () => {
  it('keeps the server message of a JSON error, and has none for a 502 HTML page, an empty body, blank text or a network error', async () => {
    const server = await scriptedServer([
      { status: 400, body: '{"message":"Your current password is incorrect."}' },
      { status: 502, body: '<html><body><h1>502 Bad Gateway</h1></body></html>', type: 'text/html' },
      { status: 500, body: '' },
      { status: 503, body: '{"message":"  "}' },
    ]);
    try {
      const caught: ApiClientError[] = [];
      for (let i = 0; i < 4; i += 1)
        caught.push(
          await apiRequest(`${server.url}/api/users/settings/password`).then(
            () => null as never,
            (error: ApiClientError) => error,
          ),
        );
      expect(caught.map((error) => error.serverMessage)).toEqual(['Your current password is incorrect.', null, null, null]);
      expect(caught.map((error) => serverMessage(error, 'Failed to update password.'))).toEqual([
        'Your current password is incorrect.',
        'Failed to update password.',
        'Failed to update password.',
        'Failed to update password.',
      ]);
      // Callers that show error.message get words, never "Request failed with status 502".
      expect(caught[1]!.message).toBe('Something went wrong (status 502). Please try again.');
    } finally {
      await server.close();
    }
    const network = await apiRequest('http://127.0.0.1:9/api/auth/login', { json: {} }).then(
      () => null as never,
      (error: ApiClientError) => error,
    );
    expect(network).toMatchObject({ status: undefined, code: 'network', serverMessage: null });
    expect(serverMessage(network, 'Failed to login')).toBe('Failed to login');
  });
});
