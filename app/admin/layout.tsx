import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';

import { AdminAnnouncer } from '@/components/admin/AdminAnnouncer';
import { AdminNav } from '@/components/admin/AdminNav';
import { adminPowerGap, isAdmin } from '@/lib/server/auth/actor';
import { pageActor } from '@/lib/server/auth/session';

import '@/components/admin/admin.css';
import { WebSiteStructuredData } from '@/components/seo/StructuredData';

/**
 * The admin panel's frame, and an optimistic redirect for people who open it
 * by mistake. It protects nothing: a client navigation (an RSC request)
 * renders a page without re-running its layout. Every admin page gets its
 * data from services that check the caller themselves (requireAdmin), and
 * every admin API call does too.
 */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const actor = await pageActor();
  if (actor.kind === 'visitor') redirect('/login?next=%2Fadmin');
  // An admin who has not enrolled two-factor, or whose session did not pass it, is sent to enrol or log in again (decision 018).
  if (adminPowerGap(actor)) redirect('/settings/security?next=%2Fadmin');
  if (!isAdmin(actor)) redirect('/');
  return (
    <div className="admin-shell">
      <WebSiteStructuredData path="/admin" name="Admin panel" />
      <AdminNav />
      <div className="admin-main">
        <AdminAnnouncer>{children}</AdminAnnouncer>
      </div>
    </div>
  );
}
