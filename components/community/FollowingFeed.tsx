import { VideoIcon } from '@/components/icons';
import type { CreatorSuggestionDto, VideoListDto } from '@/lib/api-types';
import { countLabel } from '@/lib/format/numbers';
import { CATEGORIES } from '@/lib/site';

import { Avatar } from './Avatar';
import { FollowButton } from './FollowButton';
import { InfiniteVideoGrid } from './InfiniteVideoGrid';

export const FOLLOWING_PAGE_SIZE = 12;

/** The following feed: newest videos of followed creators with infinite scroll, or help finding creators. */
export function FollowingFeed({
  initial,
  following,
  suggestions,
}: {
  initial: VideoListDto;
  following: number;
  suggestions: CreatorSuggestionDto[];
}) {
  if (initial.videos.length > 0) {
    return (
      <InfiniteVideoGrid
        initial={initial}
        listUrl={`/api/feed/following?limit=${FOLLOWING_PAGE_SIZE}`}
        label="Videos from creators you follow"
      />
    );
  }
  return (
    <div className="following-empty">
      <div className="empty-state">
        <VideoIcon />
        <p>
          {following === 0 ? 'You are not following anyone yet.' : 'The creators you follow have not published any videos yet.'}
        </p>
        <span>Follow creators from their profiles or video pages, and their new videos appear here, newest first.</span>
        <nav className="following-browse" aria-label="Find creators">
          <a className="btn btn-primary" href="/">
            Browse recent videos
          </a>
          {CATEGORIES.map((category) => (
            <a key={category} className="chip" href={`/category/${category}`}>
              {category}
            </a>
          ))}
        </nav>
      </div>
      {suggestions.length > 0 && <CreatorSuggestions creators={suggestions} />}
    </div>
  );
}

/** Creators behind the current top videos, each with a follow button. */
export function CreatorSuggestions({ creators }: { creators: CreatorSuggestionDto[] }) {
  return (
    <section className="section creator-suggestions" aria-labelledby="creator-suggestions-title">
      <div className="section-head">
        <h2 id="creator-suggestions-title">Creators to follow</h2>
      </div>
      <ul className="creator-list">
        {creators.map((creator) => (
          <li key={creator._id} className="creator">
            <a className="creator-link" href={`/profile/${encodeURIComponent(creator.username)}`}>
              <Avatar url={creator.profilePhotoUrl} username={creator.username} size="small" />
              <span className="creator-text">
                <span className="creator-name">{creator.username}</span>
                <span className="creator-meta">
                  {countLabel(creator.videos, 'video')} · {countLabel(creator.followers, 'follower')}
                </span>
              </span>
            </a>
            <FollowButton username={creator.username} initial={{ following: false, followers: creator.followers }} small />
          </li>
        ))}
      </ul>
    </section>
  );
}
