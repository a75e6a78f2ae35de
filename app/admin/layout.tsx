import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';

import { AdminNav } from '@/components/admin/AdminNav';
import { pageViewer } from '@/lib/server/community/profiles';

import '@/components/admin/admin.css';

/**
 * The admin panel's gate and frame. proxy.ts already sent visitors to log
 * in and members home using the cookie alone; this checks the session for
 * real (revoked, banned or demoted accounts), and every admin API call checks
 * again. Rendered per request, never cached.
 */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const viewer = await pageViewer();
  if (!viewer) redirect('/login?next=%2Fadmin');
  if (!viewer.isAdmin) redirect('/');
  return (
    <div className="admin-shell">
      <AdminNav />
      <div className="admin-main">{children}</div>
    </div>
  );
}
