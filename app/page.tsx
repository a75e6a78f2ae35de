import type { Metadata } from 'next';
import Link from 'next/link';

import { SparkIcon } from '@/components/icons';
import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { NoVideos } from '@/components/videos/NoVideos';
import { getConfig } from '@/lib/config/server';
import { pageMetadata } from '@/lib/seo/metadata';
import { CATEGORIES } from '@/lib/site';

export function generateMetadata(): Metadata {
  return pageMetadata({ path: '/' });
}

export default function HomePage() {
  const { siteName } = getConfig();
  return (
    <>
      <WebSiteStructuredData path="/" withSearch />
      <header className="page-header">
        <span className="eyebrow">Transformation · Exploration</span>
        <h1>Welcome to {siteName}</h1>
        <p>A safe space for adults to explore transformation: Sissy, Beta and Censor videos made by the community.</p>
      </header>

      <nav aria-label="Categories">
        <ul className="chips">
          {CATEGORIES.map((category) => (
            <li key={category}>
              <Link className="chip" href={`/category/${category}`}>
                {category}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <section className="section" aria-labelledby="top-videos">
        <div className="section-head">
          <h2 id="top-videos">Top Videos</h2>
        </div>
        <NoVideos />
      </section>

      <aside className="section banner" aria-labelledby="daily-task">
        <div>
          <h2 id="daily-task">Unlock Daily Tasks with VIP</h2>
          <p>Edge Trainer members get a new task every day and build up their reward counter.</p>
        </div>
        <Link className="btn btn-primary" href="/subscribe">
          <SparkIcon /> Unlock Daily Tasks with VIP
        </Link>
      </aside>

      <section className="section" aria-labelledby="recent-uploads">
        <div className="section-head">
          <h2 id="recent-uploads">Recent Uploads</h2>
        </div>
        <NoVideos />
      </section>
    </>
  );
}
