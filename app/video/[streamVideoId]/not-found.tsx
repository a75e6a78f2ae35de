import type { Metadata } from 'next';

import NotFound from '@/app/not-found';
import { DeferredOwnerPreview } from '@/components/shell/deferred';
import { fullTitle } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return { title: { absolute: fullTitle('Page not found') }, robots: { index: false, follow: true } };
}

export default function VideoNotFound() {
  return (
    <>
      <DeferredOwnerPreview />
      <NotFound />
    </>
  );
}
