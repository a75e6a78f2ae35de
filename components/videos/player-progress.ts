import type { ProgressDto, ProgressSavedDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';
import { readStorage, writeStorage } from '@/lib/client/browser-store';
import { formatDuration } from '@/lib/format/numbers';
import { STORAGE_KEYS } from '@/lib/storage-keys';
import {
  isFinished,
  MIN_RESUME_SECONDS,
  parseLocalProgress,
  PROGRESS_SAVE_INTERVAL_MS,
  resumePosition,
  withLocalProgress,
} from '@/lib/watch-progress';

/** How long the "Resumed from" note stays. */
const RESUME_NOTE_MS = 10_000;

interface Where {
  streamVideoId: string;
  /** A member's place is kept on the server (their history); a visitor's in this browser alone, never sent. */
  member: boolean;
}

/** The place kept for this video: the member's from the API, the visitor's from localStorage. */
async function savedPlace({
  streamVideoId,
  member,
}: Where): Promise<{ positionSeconds: number; finished: boolean; paused: boolean } | null> {
  if (member) {
    const answer = await apiRequest<ProgressDto>(`/api/videos/${streamVideoId}/progress`);
    return answer.progress
      ? { ...answer.progress, paused: answer.paused }
      : { positionSeconds: 0, finished: false, paused: answer.paused };
  }
  const entry = parseLocalProgress(readStorage('localStorage', STORAGE_KEYS.watchProgress))[streamVideoId];
  return entry ? { positionSeconds: entry[0], finished: entry[1] === 1, paused: false } : null;
}

/**
 * The "Resumed from 12:34 · Start over" note over the player: built here rather than in PlayerEnhancer so the
 * video page's first load carries none of it.
 */
function showResumed(player: HTMLElement, video: HTMLVideoElement, at: number): () => void {
  const note = document.createElement('div');
  note.className = 'player-resume';
  note.setAttribute('role', 'status');
  note.append(`Resumed from ${formatDuration(at)}`);
  const startOver = document.createElement('button');
  startOver.type = 'button';
  startOver.className = 'player-resume-button';
  startOver.textContent = 'Start over';
  startOver.addEventListener('click', () => {
    video.currentTime = 0;
    void video.play().catch(() => {});
    remove();
  });
  note.append(startOver);
  player.append(note);
  const timer = setTimeout(() => remove(), RESUME_NOTE_MS);
  function remove() {
    clearTimeout(timer);
    note.remove();
  }
  return remove;
}

/**
 * Resume and history for one player (decision 053), loaded with the first play. It resumes where the viewer stopped
 * last time (automatically, as YouTube does, with a "Start over" button: most who come back want to continue, and the
 * place is only known once playback starts, since the page is the same cached HTML for everyone), unless they barely
 * started or had watched to the end. It saves the place every PROGRESS_SAVE_INTERVAL_MS while playing and at once on
 * pause, at the end and when the page is hidden or left (a keepalive request, so it outlives the page). Returns the
 * cleanup.
 */
export function trackProgress(video: HTMLVideoElement, where: Where): () => void {
  const player = video.closest<HTMLElement>('.player');
  let stopped = false;
  // No save until the saved place is known: a pause in the first moment must not overwrite the place to resume.
  let ready = false;
  let paused = false;
  let lastSaved = -1;
  let timer: ReturnType<typeof setInterval> | undefined;
  let hideNote = () => {};

  const save = () => {
    const position = video.currentTime;
    if (stopped || !ready || paused || !Number.isFinite(position) || Math.abs(position - lastSaved) < 1) return;
    lastSaved = position;
    if (!where.member) {
      const progress = parseLocalProgress(readStorage('localStorage', STORAGE_KEYS.watchProgress));
      const next = withLocalProgress(
        progress,
        where.streamVideoId,
        position,
        video.ended || isFinished(position, video.duration),
        Date.now(),
      );
      writeStorage('localStorage', STORAGE_KEYS.watchProgress, JSON.stringify(next));
      return;
    }
    void apiRequest<ProgressSavedDto>(`/api/videos/${where.streamVideoId}/progress`, {
      method: 'PUT',
      json: { positionSeconds: Math.round(position * 10) / 10 },
      keepalive: true,
    })
      .then((answer) => {
        // The member paused their history: nothing is kept, so stop asking.
        if (answer.paused) paused = true;
      })
      // A lost save costs a few seconds of the place; the next one (10 s on) tries again.
      .catch(() => {});
  };

  const startTimer = () => {
    clearInterval(timer);
    timer = setInterval(save, PROGRESS_SAVE_INTERVAL_MS);
  };
  const stopTimer = () => clearInterval(timer);
  const onPause = () => {
    stopTimer();
    save();
  };
  const onHidden = () => {
    if (document.visibilityState === 'hidden') save();
  };

  void savedPlace(where)
    .then((saved) => {
      if (stopped || !saved) return;
      paused = saved.paused;
      const at = resumePosition(saved, video.duration);
      // Only at the start of playback: never pull a viewer back who has already moved on.
      if (at === null || video.currentTime >= MIN_RESUME_SECONDS) return;
      video.currentTime = at;
      if (player) hideNote = showResumed(player, video, at);
    })
    .catch(() => {})
    .finally(() => {
      ready = true;
    });

  video.addEventListener('playing', startTimer);
  video.addEventListener('pause', onPause);
  video.addEventListener('ended', onPause);
  document.addEventListener('visibilitychange', onHidden);
  window.addEventListener('pagehide', save);
  if (!video.paused) startTimer();

  return () => {
    save();
    stopped = true;
    stopTimer();
    hideNote();
    video.removeEventListener('playing', startTimer);
    video.removeEventListener('pause', onPause);
    video.removeEventListener('ended', onPause);
    document.removeEventListener('visibilitychange', onHidden);
    window.removeEventListener('pagehide', save);
  };
}
