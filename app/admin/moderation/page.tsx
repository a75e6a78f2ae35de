import type { Metadata } from 'next';

import { ModerationQueue } from '@/components/admin/ModerationQueue';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Moderation',
    description: 'Review uploaded videos before they go public.',
    path: '/admin/moderation',
    noindex: true,
  });
}

/** The moderation queue (the layout has checked the admin; every decision is authorised again by the API). */
export default function ModerationPage() {
  return <ModerationQueue />;
}
