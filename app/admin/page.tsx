import type { Metadata } from 'next';

import { ModerationQueue } from '@/components/admin/ModerationQueue';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({ title: 'Admin', description: 'Review uploaded videos before they go public.', path: '/admin', noindex: true });
}

/**
 * The admin panel. proxy.ts sends non-admins home before this renders; the
 * queue checks the session again on the client, and every admin API call is
 * authorised on the server (requireAdmin). The page itself holds no data.
 */
export default function AdminPage() {
  return <ModerationQueue />;
}
