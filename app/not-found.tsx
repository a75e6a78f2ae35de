import type { Metadata } from 'next';

import { MissingPage } from '@/components/shell/MissingPage';
import { ShellInBrowser } from '@/components/shell/ShellInBrowser';
import { fullTitle } from '@/lib/seo/metadata';

// No robots rule: Next writes its own `noindex` on the 404s this page answers, and a second one would contradict it.
export function generateMetadata(): Metadata {
  return { title: { absolute: fullTitle('Page not found') } };
}

/**
 * The 404 of a notFound() thrown by a page (the profile and admin pages, a category or tag that does not exist),
 * which Next draws in the browser (MissingPage says why). Pages that can render their 404 on the server
 * render MissingPage themselves.
 */
export default function NotFound() {
  return (
    <>
      <ShellInBrowser />
      <MissingPage />
    </>
  );
}
