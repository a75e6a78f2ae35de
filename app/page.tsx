import type { Metadata } from 'next';

import { SparkIcon } from '@/components/icons';
import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { MemberHomeSlot } from '@/components/home/MemberHomeSlot';
import { VideoFeed } from '@/components/videos/VideoFeed';
import { getConfig } from '@/lib/config/server';
import { loadHomeFeeds } from '@/lib/server/videos/page-data';
import { previewImageOf } from '@/lib/server/videos/preview-image';
import { pageMetadata } from '@/lib/seo/metadata';
import { CATEGORIES, HOME_PAGE_SIZES } from '@/lib/site';

export async function generateMetadata(): Promise<Metadata> {
  return pageMetadata({ path: '/', image: await previewImageOf({ list: 'home' }) });
}

export default async function HomePage() {
  const { siteName } = getConfig();
  const { top, recent } = await loadHomeFeeds();
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
              <a className="chip" href={`/category/${category}`}>
                {category}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      <section className="section" aria-labelledby="top-videos">
        <div className="section-head">
          <h2 id="top-videos">Top Videos</h2>
        </div>
        <VideoFeed
          initial={top && { videos: top, hasMore: false }}
          cacheKey="top"
          listUrl={`/api/videos/top?limit=${HOME_PAGE_SIZES.top}`}
          pageSize={HOME_PAGE_SIZES.top}
          label="Top videos"
          priorityCount={3}
        />
      </section>

      {/* The server HTML is the same for everyone (home is cached): the unlock banner. In the browser a member gets their Continue watching row above it, and a VIP their task instead. */}
      <MemberHomeSlot>
        <aside className="section banner" aria-labelledby="daily-task">
          <div>
            <h2 id="daily-task">Unlock Daily Tasks with VIP</h2>
            <p>Edge Trainer members get a new task every day and build up their reward counter.</p>
          </div>
          <a className="btn btn-primary" href="/subscribe">
            <SparkIcon /> Unlock Daily Tasks with VIP
          </a>
        </aside>
      </MemberHomeSlot>

      <section className="section" aria-labelledby="recent-uploads">
        <div className="section-head">
          <h2 id="recent-uploads">Recent Uploads</h2>
        </div>
        <VideoFeed
          initial={recent && { videos: recent.videos, hasMore: recent.pagination.hasMore }}
          cacheKey="recent"
          listUrl={`/api/videos?limit=${HOME_PAGE_SIZES.recent}`}
          pageSize={HOME_PAGE_SIZES.recent}
          label="Recent uploads"
          infinite
        />
      </section>
    </>
  );
}
