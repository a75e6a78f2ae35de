'use client';

import type { DecisionGround } from '@/lib/trust/grounds';
import { useRef, useState, type KeyboardEvent } from 'react';
import useSWRInfinite from 'swr/infinite';

import { serverMessage } from '@/components/account/form-parts';
import { VideoIcon } from '@/components/icons';
import { Spinner } from '@/components/shell/Spinner';
import type { ModerationVideoDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';

import { ModerationItem, type ModerationStatus } from './ModerationItem';
import { RejectForm } from './RejectForm';

/** GET /api/admin/videos: one page of a list, with every list's count. */
export interface ModerationPage {
  videos: ModerationVideoDto[];
  counts: Record<ModerationStatus, number>;
  pagination: { page: number; limit: number; hasMore: boolean };
}

export type ModerationDecision = { action: 'approve' } | { action: 'reject'; reason: string; ground: DecisionGround };

const LISTS: readonly { status: ModerationStatus; label: string; empty: string }[] = [
  { status: 'pending', label: 'Pending', empty: 'No videos waiting for review.' },
  { status: 'approved', label: 'Approved', empty: 'No approved videos yet.' },
  { status: 'rejected', label: 'Rejected', empty: 'No rejected videos.' },
];

export const PAGE_SIZE = 10;
/** While a listed video is still processing, the list refreshes so its player appears when ready. */
const PROCESSING_POLL_MS = 4_000;

type QueueKey = readonly ['admin-videos', ModerationStatus, number];

function fetchPage([, status, page]: QueueKey): Promise<ModerationPage> {
  const query = new URLSearchParams({ status, page: String(page), limit: String(PAGE_SIZE) });
  return apiRequest<ModerationPage>(`/api/admin/videos?${query}`);
}

const stillProcessing = (pages: ModerationPage[] | undefined) =>
  Boolean(pages?.some((page) => page.videos.some((video) => video.status === 'queued' || video.status === 'processing')));

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _dropped, ...rest } = record;
  return rest;
}

type Move = { from: ModerationStatus; to: ModerationStatus };

/** The server's counts with the decisions it has not reported yet already moved. */
function withDecisions(counts: Record<ModerationStatus, number>, moves: Move[]): Record<ModerationStatus, number> {
  const result = { ...counts };
  for (const { from, to } of moves) {
    result[from] = Math.max(0, result[from] - 1);
    result[to] += 1;
  }
  return result;
}

/** The admin panel's moderation queue (app/admin/layout.tsx has checked the admin; the API checks every call). */
export function ModerationQueue({ textEdits }: { textEdits: number }) {
  return <AdminPanel textEdits={textEdits} />;
}

type Notice = { ok: boolean; text: string } | null;

function AdminPanel({ textEdits }: { textEdits: number }) {
  const [tab, setTab] = useState<ModerationStatus>('pending');
  /** Decisions sent but not yet reflected by a reload: hidden from their old list at once (optimistic). */
  const [decided, setDecided] = useState<Record<string, Move>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<Notice>(null);
  /** Pending videos ticked for a bulk decision. */
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulkRejecting, setBulkRejecting] = useState(false);
  const [bulkBusy, setBulkBusy] = useState(false);
  const items = useRef(new Map<string, HTMLElement>());
  const panel = useRef<HTMLDivElement>(null);
  const tabs = useRef(new Map<ModerationStatus, HTMLButtonElement>());

  const { data, error, isLoading, size, setSize, mutate } = useSWRInfinite<
    ModerationPage,
    Error,
    (index: number, previous: ModerationPage | null) => QueueKey | null
  >(
    (index, previous) => (previous && !previous.pagination.hasMore ? null : (['admin-videos', tab, index + 1] as const)),
    fetchPage,
    { revalidateAll: true, refreshInterval: (pages) => (stillProcessing(pages) ? PROCESSING_POLL_MS : 0) },
  );

  // Every loaded page, without repeats (offset pages can overlap after a decision) and without decided videos.
  const seen = new Set<string>();
  const videos = (data ?? [])
    .flatMap((page) => page.videos)
    .filter(
      (video) => !seen.has(video.streamVideoId) && seen.add(video.streamVideoId) && decided[video.streamVideoId]?.from !== tab,
    );

  const counts = data?.[0] && withDecisions(data[0].counts, Object.values(decided));
  const hasMore = Boolean(data?.at(-1)?.pagination.hasMore);
  const loadingMore = size > 0 && data !== undefined && data[size - 1] === undefined;
  const current = LISTS.find((list) => list.status === tab)!;

  /** Focus after the list changes: the named video, else the list itself. */
  function focusLater(streamVideoId: string | null) {
    requestAnimationFrame(() => ((streamVideoId && items.current.get(streamVideoId)) || panel.current)?.focus());
  }

  async function decide(video: ModerationVideoDto, decision: ModerationDecision) {
    const id = video.streamVideoId;
    const from = tab;
    const to: ModerationStatus = decision.action === 'approve' ? 'approved' : 'rejected';
    const verb = decision.action;
    const index = videos.findIndex((candidate) => candidate.streamVideoId === id);
    const neighbour = videos[index + 1] ?? videos[index - 1];

    setErrors((current) => without(current, id));
    setDecided((current) => ({ ...current, [id]: { from, to } }));
    focusLater(neighbour?.streamVideoId ?? null);
    try {
      await apiRequest(`/api/admin/videos/${encodeURIComponent(id)}`, { method: 'PATCH', json: decision });
    } catch (failure) {
      const message = serverMessage(failure, `Could not ${verb} this video. Please try again.`);
      setDecided((current) => without(current, id));
      setErrors((current) => ({ ...current, [id]: message }));
      setNotice({ ok: false, text: `Could not ${verb} “${video.title}”: ${message}` });
      focusLater(id);
      void mutate();
      return;
    }
    setNotice({ ok: true, text: `${to === 'approved' ? 'Approved' : 'Rejected'} “${video.title}”.` });
    // Reload the lists before showing the server's counts again, so the video does not flash back.
    await mutate().catch(() => undefined);
    setDecided((current) => without(current, id));
  }

  function toggle(streamVideoId: string, on: boolean) {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(streamVideoId);
      else next.delete(streamVideoId);
      return next;
    });
  }

  /** One decision for every ticked video; the ones the server could not change stay listed with its reason. */
  async function decideSelected(decision: ModerationDecision) {
    const ids = videos.map((video) => video.streamVideoId).filter((id) => selected.has(id));
    if (ids.length === 0) return;
    setBulkBusy(true);
    setBulkRejecting(false);
    try {
      const { results } = await apiRequest<{ results: { streamVideoId: string; ok: boolean; message: string | null }[] }>(
        '/api/admin/videos/bulk',
        {
          method: 'POST',
          json: { streamVideoIds: ids, ...decision },
        },
      );
      const failed = results.filter((result) => !result.ok);
      setErrors((current) => ({
        ...current,
        ...Object.fromEntries(failed.map((result) => [result.streamVideoId, result.message ?? 'Not changed.'])),
      }));
      const done = results.length - failed.length;
      const verb = decision.action === 'approve' ? 'Approved' : 'Rejected';
      setNotice({
        ok: failed.length === 0,
        text: `${verb} ${done} video${done === 1 ? '' : 's'}.${failed.length ? ` ${failed.length} could not be changed; see the messages below.` : ''}`,
      });
      setSelected(new Set(failed.map((result) => result.streamVideoId)));
    } catch (failure) {
      setNotice({ ok: false, text: serverMessage(failure, 'Could not decide on the selected videos. Please try again.') });
    } finally {
      setBulkBusy(false);
      await mutate().catch(() => undefined);
    }
  }

  function select(status: ModerationStatus, focus = false) {
    setTab(status);
    setNotice(null);
    setSelected(new Set());
    setBulkRejecting(false);
    if (focus) tabs.current.get(status)?.focus();
  }

  function onTabKey(event: KeyboardEvent<HTMLDivElement>) {
    const at = LISTS.findIndex((list) => list.status === tab);
    const target =
      event.key === 'ArrowRight'
        ? (at + 1) % LISTS.length
        : event.key === 'ArrowLeft'
          ? (at - 1 + LISTS.length) % LISTS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? LISTS.length - 1
              : -1;
    if (target < 0) return;
    event.preventDefault();
    select(LISTS[target]!.status, true);
  }

  return (
    <>
      <header className="page-header">
        <span className="eyebrow">Admin Panel</span>
        <h1>Moderation</h1>
        <p>
          New uploads wait here, oldest first, until an admin approves them. Watch each video, check its details, then approve it
          or reject it with a reason the uploader will see.
        </p>
        {/* Owners' new text for approved videos waits apart: those videos stay public meanwhile (decision 009). */}
        <p>
          <a href="/admin/moderation/edits">
            Text edits waiting for review <span className="admin-tab-count">{textEdits}</span>
          </a>
        </p>
      </header>

      <div className="admin-tabs" role="tablist" aria-label="Moderation lists" onKeyDown={onTabKey}>
        {LISTS.map((list) => (
          <button
            key={list.status}
            ref={(element) => {
              if (element) tabs.current.set(list.status, element);
            }}
            type="button"
            role="tab"
            id={`admin-tab-${list.status}`}
            className="admin-tab"
            aria-selected={list.status === tab}
            aria-controls="admin-tabpanel"
            tabIndex={list.status === tab ? 0 : -1}
            onClick={() => select(list.status)}
          >
            {list.label}
            {counts && <span className="admin-tab-count">{counts[list.status]}</span>}
          </button>
        ))}
      </div>

      <p
        role="status"
        aria-live="polite"
        className={`admin-notice${notice ? (notice.ok ? ' admin-notice-ok' : ' admin-notice-error') : ''}`}
      >
        {notice?.text}
      </p>

      <div
        className="admin-tabpanel"
        role="tabpanel"
        id="admin-tabpanel"
        aria-labelledby={`admin-tab-${tab}`}
        tabIndex={-1}
        ref={panel}
      >
        {isLoading && !data ? (
          <Spinner label="Loading videos…" />
        ) : error && !data ? (
          <div className="empty-state" role="alert">
            <p>
              Could not load the {current.label.toLowerCase()} videos. {error.message}
            </p>
            <button type="button" className="btn btn-primary" onClick={() => void mutate()}>
              Try again
            </button>
          </div>
        ) : videos.length === 0 && !hasMore ? (
          <div className="empty-state">
            <VideoIcon />
            <p>{current.empty}</p>
          </div>
        ) : (
          <>
            {tab === 'pending' && selected.size > 0 && (
              <div className="admin-bulkbar" role="region" aria-label="Decide on the selected videos">
                <strong>{selected.size} selected</strong>
                {bulkRejecting ? (
                  <RejectForm
                    title={`${selected.size} selected videos`}
                    onCancel={() => setBulkRejecting(false)}
                    onSubmit={(reason, ground) => void decideSelected({ action: 'reject', reason, ground })}
                  />
                ) : (
                  <>
                    <button
                      type="button"
                      className="btn btn-primary"
                      disabled={bulkBusy}
                      onClick={() => void decideSelected({ action: 'approve' })}
                    >
                      Approve selected
                    </button>
                    <button
                      type="button"
                      className="btn admin-btn-reject"
                      disabled={bulkBusy}
                      onClick={() => setBulkRejecting(true)}
                    >
                      Reject selected…
                    </button>
                    <button type="button" className="btn btn-ghost" onClick={() => setSelected(new Set())}>
                      Clear selection
                    </button>
                  </>
                )}
              </div>
            )}
            <ol className="admin-list" aria-label={`${current.label} videos`}>
              {videos.map((video) => (
                <li key={video.streamVideoId}>
                  <ModerationItem
                    ref={(element: HTMLElement | null) => {
                      if (!element) return;
                      items.current.set(video.streamVideoId, element);
                      return () => {
                        items.current.delete(video.streamVideoId);
                      };
                    }}
                    video={video}
                    listStatus={tab}
                    error={errors[video.streamVideoId] ?? null}
                    onApprove={() => void decide(video, { action: 'approve' })}
                    onReject={(reason, ground) => void decide(video, { action: 'reject', reason, ground })}
                    onChanged={() => void mutate()}
                    {...(tab === 'pending'
                      ? {
                          selected: selected.has(video.streamVideoId),
                          onSelect: (on: boolean) => toggle(video.streamVideoId, on),
                        }
                      : {})}
                  />
                </li>
              ))}
            </ol>
            {hasMore && (
              <div className="admin-more">
                <button type="button" className="btn btn-ghost" disabled={loadingMore} onClick={() => void setSize(size + 1)}>
                  {loadingMore ? 'Loading…' : 'Load more'}
                </button>
              </div>
            )}
          </>
        )}
      </div>
    </>
  );
}
