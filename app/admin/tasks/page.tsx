import type { Metadata } from 'next';

import { DailyTasksAdmin } from '@/components/admin/DailyTasksAdmin';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Daily tasks',
    description: 'Schedule the VIP daily task and keep the pool.',
    path: '/admin/tasks',
    noindex: true,
  });
}

/**
 * Admin scheduling of the VIP daily task. proxy.ts sends non-admins home
 * before this renders; the component checks the session again, and every
 * call it makes is authorised on the server (requireAdmin). The page itself
 * holds no data.
 */
export default function AdminTasksPage() {
  return <DailyTasksAdmin />;
}
