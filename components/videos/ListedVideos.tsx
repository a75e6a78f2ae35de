import type { VideoListDto } from '@/lib/api-types';
import { DURATION_LABELS, type ListOrder } from '@/lib/validation/videos';

import { NoVideos } from './NoVideos';
import { Pager } from './Pager';
import { StaticVideoGrid } from './StaticVideoGrid';

/**
 * A server-rendered, paged list of a category's or a tag's videos in an order: the grid and its pager, or
 * what to say when the list is empty, past its end, or could not be read.
 */
export function ListedVideos({
  list,
  page,
  order,
  name,
  href,
  orderHref,
}: {
  list: VideoListDto | null;
  page: number;
  order: ListOrder;
  /** How the videos are called in sentences and labels: "Sissy", "#sissy". */
  name: string;
  href: (page: number) => string;
  orderHref: (order: ListOrder) => string;
}) {
  if (list === null)
    return (
      <p className="form-error" role="alert">
        Error loading videos. Please try again later.
      </p>
    );
  if (list.videos.length === 0) {
    if (page > 1)
      return (
        <div className="empty-state">
          <p>There are no more {name} videos.</p>
          <a className="btn btn-primary" href={href(1)}>
            Back to the first page
          </a>
        </div>
      );
    if (order.duration)
      return (
        <div className="empty-state">
          <p>
            No {name} videos are {DURATION_LABELS[order.duration].toLowerCase()} long yet.
          </p>
          <a className="btn btn-primary" href={orderHref({ sort: order.sort })}>
            Show every length
          </a>
        </div>
      );
    return <NoVideos message={`No ${name} videos yet.`} />;
  }
  return (
    <>
      <StaticVideoGrid videos={list.videos} label={`${name} videos`} priorityCount={4} />
      <Pager
        page={page}
        hasMore={list.pagination.hasMore}
        href={href}
        labels={order.sort === 'newest' ? ['← Newer', 'Older →'] : undefined}
      />
    </>
  );
}
