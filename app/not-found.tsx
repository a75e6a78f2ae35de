import type { Metadata } from 'next';

import { fullTitle } from '@/lib/seo/metadata';
import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { ShellInBrowser } from '@/components/shell/ShellInBrowser';

export function generateMetadata(): Metadata {
  return { title: { absolute: fullTitle('Page not found') }, robots: { index: false, follow: true } };
}

export default function NotFound() {
  return (
    <section className="not-found" aria-labelledby="not-found-title">
      <WebSiteStructuredData path="/" name="Page not found" />
      <ShellInBrowser />
      <span className="code" aria-hidden="true">
        404
      </span>
      <h1 id="not-found-title">This page doesn’t exist</h1>
      <p>The link may be broken, or the video may have been removed. Try searching, or head back to the home page.</p>
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
