import type { Metadata } from 'next';

import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { fullTitle } from '@/lib/seo/metadata';

/**
 * The 404 (and, for a removed video, 410) page's content. A page that finds nothing renders this with
 * setPageStatus() instead of calling notFound(): a thrown notFound() leaves the server's HTML an empty
 * `<html id="__next_error__">` that React fills in the browser (vercel/next.js#62228), so crawlers and
 * browsers without JavaScript saw no text, no `lang` and two robots rules (decision 057).
 */
export function MissingPage({ gone = false }: { gone?: boolean }) {
  return (
    <section className="not-found" aria-labelledby="not-found-title">
      <WebSiteStructuredData path="/" name={gone ? 'Video removed' : 'Page not found'} />
      <span className="code" aria-hidden="true">
        {gone ? 410 : 404}
      </span>
      <h1 id="not-found-title">{gone ? 'This video was removed' : 'This page doesn’t exist'}</h1>
      <p>
        {gone
          ? 'Its uploader deleted it, or it was taken down. Try searching for something else, or head back to the home page.'
          : 'The link may be broken, or the video may have been removed. Try searching, or head back to the home page.'}
      </p>
      <div className="actions">
        <a className="btn btn-primary" href="/">
          Go to home
        </a>
        <a className="btn btn-ghost" href="/search">
          Search videos
        </a>
      </div>
    </section>
  );
}

/** The missing page's title and its one robots rule (Next adds none: to Next this render is a 200). */
export function missingPageMetadata(gone = false): Metadata {
  return { title: { absolute: fullTitle(gone ? 'Video removed' : 'Page not found') }, robots: { index: false, follow: true } };
}
