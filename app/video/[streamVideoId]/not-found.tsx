import type { Metadata } from 'next';

import NotFound from '@/app/not-found';
import { OwnerPreview } from '@/components/videos/OwnerPreview';
import { fullTitle } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return { title: { absolute: fullTitle('Page not found') }, robots: { index: false, follow: true } };
}

export default function VideoNotFound() {
  return (
    <>
      <OwnerPreview />
      <NotFound />
    </>
  );
}
