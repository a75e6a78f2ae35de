'use client';

import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import useSWRInfinite from 'swr/infinite';

import { useSession } from '@/components/session/SessionProvider';
import type { CommentDto, CommentPageDto, CommentThreadDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';
import { COMMENTS_PAGE_SIZE } from '@/lib/validation/comment-limits';

import { subscribeToHash, type CommentsProps } from './Comments';
import { CommentsView } from './CommentsView';

interface Props extends CommentsProps {
  /** A visitor asked for the next page before this loaded: ask for it at once. */
  loadMoreOnMount?: boolean;
  /** A visitor pressed this thread's "View N replies" before this loaded: open it. */
  openThread?: string;
}

type PageKey = [path: string, viewer: string];

const fetchPage = ([path]: PageKey) => apiRequest<CommentPageDto>(path);

/**
 * The video page's comments once they are more than the server's first page (Comments loads this with
 * SWR): for members, the first page again from the API, which leaves out comments by members they blocked,
 * with the post form, edit and delete; for everyone, the next pages and a #comment-{id} link's thread.
 */
export function LiveComments({ streamVideoId, videoOwnerId, initial, loadMoreOnMount = false, openThread }: Props) {
  const { loading, user } = useSession();
  const base = `/api/videos/${encodeURIComponent(streamVideoId)}/comments?limit=${COMMENTS_PAGE_SIZE}`;
  // Until the session is restored we do not know whose view to fetch; the server's page shows meanwhile.
  const viewer = loading ? null : (user?._id ?? 'visitor');

  const getKey = (index: number, previous: CommentPageDto | null): PageKey | null => {
    if (!viewer) return null;
    if (index === 0) return [base, viewer];
    if (!previous?.pagination.hasMore || !previous.pagination.nextCursor) return null;
    return [`${base}&cursor=${encodeURIComponent(previous.pagination.nextCursor)}`, viewer];
  };

  const { data, error, size, setSize, mutate, isValidating } = useSWRInfinite(getKey, fetchPage, {
    // Visitors see what the server rendered; members get their own first page (blocked authors left out).
    revalidateOnMount: !initial || Boolean(user),
    revalidateFirstPage: false,
    revalidateOnFocus: Boolean(user),
  });

  const pages = useMemo(() => data ?? (initial ? [initial] : undefined), [data, initial]);
  const comments = useMemo(() => {
    const seen = new Set<string>();
    return (pages ?? [])
      .flatMap((page) => page.comments)
      .filter((comment) => (seen.has(comment._id) ? false : (seen.add(comment._id), true)));
  }, [pages]);
  const total = pages?.[0]?.total ?? comments.length;
  const hasMore = pages?.at(-1)?.pagination.hasMore ?? false;
  const loadingMore = isValidating && size > (data?.length ?? 1);

  // The click that loaded this module asked for the next page.
  const askedForMore = useRef(false);
  useEffect(() => {
    if (!loadMoreOnMount || !viewer || askedForMore.current) return;
    askedForMore.current = true;
    void setSize(2);
  }, [loadMoreOnMount, viewer, setSize]);

  // A #comment-{id} link (a notification, the report queue) to a comment on a later page, or to a reply: ask for it and show its thread first.
  const [linked, setLinked] = useState<CommentThreadDto | null>(null);
  const askedFor = useRef<string | null>(null);
  // A link to another comment on the same page changes only the hash.
  const hash = useSyncExternalStore(
    subscribeToHash,
    () => window.location.hash,
    () => '',
  );
  useEffect(() => {
    const match = /^#comment-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.exec(hash);
    if (
      !match ||
      !viewer ||
      pages === undefined ||
      askedFor.current === match[1] ||
      document.getElementById(`comment-${match[1]}`)
    )
      return;
    askedFor.current = match[1]!;
    apiRequest<CommentThreadDto>(`/api/comments/${match[1]}`).then(setLinked, () => undefined);
  }, [hash, pages, viewer]);

  // A notification links to #comment-{id}; after a client-side navigation the layout scrolls to the top, so look again once the list is in.
  const scrolledTo = useRef<string | null>(null);
  useEffect(() => {
    const current = window.location.hash;
    if (!current.startsWith('#comment-') || scrolledTo.current === current) return;
    const target = document.getElementById(current.slice(1));
    if (!target) return;
    scrolledTo.current = current;
    const frame = requestAnimationFrame(() => requestAnimationFrame(() => target.scrollIntoView({ block: 'center' })));
    return () => cancelAnimationFrame(frame);
  }, [comments, linked, hash]);

  /** Applies a local change to the loaded pages without asking the server again. */
  function update(change: (pages: CommentPageDto[]) => CommentPageDto[]) {
    if (!data) return void mutate();
    return void mutate(change(data), { revalidate: false });
  }

  async function post(body: string) {
    const { comment } = await apiRequest<{ comment: CommentDto }>(`/api/videos/${encodeURIComponent(streamVideoId)}/comments`, {
      json: { body },
    });
    update(([first, ...rest]) =>
      first
        ? [{ ...first, total: first.total + 1, comments: [comment, ...first.comments] }, ...rest]
        : [{ comments: [comment], total: 1, pagination: { limit: COMMENTS_PAGE_SIZE, hasMore: false, nextCursor: null } }],
    );
  }

  async function edit(id: string, body: string) {
    const { comment } = await apiRequest<{ comment: CommentDto }>(`/api/comments/${encodeURIComponent(id)}`, {
      method: 'PATCH',
      json: { body },
    });
    update((current) =>
      current.map((page) => ({ ...page, comments: page.comments.map((other) => (other._id === id ? comment : other)) })),
    );
    setLinked((current) =>
      current && !current.parent && current.comment._id === id
        ? { comment, parent: null }
        : current?.parent?._id === id
          ? { ...current, parent: comment }
          : current,
    );
  }

  async function remove(id: string) {
    await apiRequest(`/api/comments/${encodeURIComponent(id)}`, { method: 'DELETE' });
    update((current) =>
      current.map((page, index) => ({
        ...page,
        total: index === 0 ? Math.max(0, page.total - 1) : page.total,
        comments: page.comments.filter((other) => other._id !== id),
      })),
    );
    setLinked((current) => (current && (current.parent ?? current.comment)._id === id ? null : current));
  }

  // The linked thread comes first; the rest keep their order.
  const pinned = linked ? (linked.parent ?? linked.comment) : null;
  const threads = pinned ? [pinned, ...comments.filter((comment) => comment._id !== pinned._id)] : comments;

  return (
    <CommentsView
      streamVideoId={streamVideoId}
      videoOwnerId={videoOwnerId}
      user={user}
      loading={loading}
      pages={pages}
      failed={Boolean(error)}
      threads={threads}
      pinned={pinned}
      linked={linked}
      openThread={openThread}
      total={total}
      hasMore={hasMore}
      loadingMore={loadingMore}
      canLoadMore={Boolean(viewer)}
      moreFailed={Boolean(error && data)}
      onRetry={() => void mutate()}
      onLoadMore={() => void setSize(Math.max(size, pages?.length ?? 1) + 1)}
      onPost={post}
      onEdit={edit}
      onDelete={remove}
    />
  );
}
