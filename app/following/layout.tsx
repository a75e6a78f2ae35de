import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';

import { memberOf } from '@/lib/server/auth/actor';
import { pageActor } from '@/lib/server/auth/session';

/**
 * The gate of /following, outside the page's loading boundary so it answers
 * with a real redirect: visitors, and revoked or banned sessions that
 * proxy.ts (which only unseals the cookie) lets through, go to log in.
 */
export default async function FollowingLayout({ children }: { children: ReactNode }) {
  if (!memberOf(await pageActor())) redirect(`/login?next=${encodeURIComponent('/following')}`);
  return children;
}
