import { notFound, redirect } from 'next/navigation';
import type { ReactNode } from 'react';

import { memberOf } from '@/lib/server/auth/actor';
import { pageActor } from '@/lib/server/auth/session';
import { decodeSegment, loadProfilePage } from '@/lib/server/community/profiles';

/**
 * The gate of /profile/{username}, outside the page's loading boundary so its
 * answers are real HTTP ones before anything streams: visitors (and revoked
 * or banned sessions, which proxy.ts cannot tell) go to log in, unknown
 * members are a 404, and /profile/ALEX goes to /profile/alex. The lookup is
 * memoised for the request, so the page reuses it.
 */
export default async function ProfileLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ username: string }>;
}) {
  const raw = (await params).username;
  const actor = await pageActor();
  if (!memberOf(actor)) redirect(`/login?next=${encodeURIComponent(`/profile/${raw}`)}`);
  const username = decodeSegment(raw);
  const profile = username ? await loadProfilePage(actor, username) : null;
  if (!profile) notFound();
  if (profile.username !== username) redirect(`/profile/${encodeURIComponent(profile.username)}`);
  return children;
}
