import 'server-only';

import { notFound, redirect } from 'next/navigation';

import { ApiError } from './errors';

/**
 * Runs a service call for a server-rendered page and turns the service's own
 * refusal into navigation: nobody signed in → the login page (then back
 * here), signed in but not allowed → home, not found → the 404 page. The
 * service has already decided; this only chooses what a person sees, so an
 * RSC request that skips the layout still gets nothing.
 */
export async function forPage<T>(work: Promise<T>, returnTo: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 401) redirect(`/login?next=${encodeURIComponent(returnTo)}`);
    // An admin without two-factor, or in a session that did not pass it: to Security settings, to enrol or log in again (decision 018).
    if (error.status === 403 && error.extra.twoFactorRequired)
      redirect(`/settings/security?next=${encodeURIComponent(returnTo)}`);
    if (error.status === 403) redirect('/');
    if (error.status === 404) notFound();
    throw error;
  }
}
