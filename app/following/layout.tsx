import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';

import { pageViewer } from '@/lib/server/community/profiles';

/**
 * The gate of /following, outside the page's loading boundary so it answers
 * with a real redirect: visitors, and revoked or banned sessions that
 * proxy.ts (which only unseals the cookie) lets through, go to log in.
 */
export default async function FollowingLayout({ children }: { children: ReactNode }) {
  if (!(await pageViewer())) redirect(`/login?next=${encodeURIComponent('/following')}`);
  return children;
}
