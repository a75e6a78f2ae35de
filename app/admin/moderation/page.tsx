import type { Metadata } from 'next';

import { ModerationQueue } from '@/components/admin/ModerationQueue';
import { pageActor } from '@/lib/server/auth/session';
import { forPage } from '@/lib/server/page-access';
import { countTextEdits } from '@/lib/server/videos/text-edits';
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
export default async function ModerationPage() {
  const textEdits = await forPage(countTextEdits(await pageActor()), '/admin/moderation');
  return <ModerationQueue textEdits={textEdits} />;
}
