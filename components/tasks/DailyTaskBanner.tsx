'use client';

import { useEffect, useRef, useState, type ReactNode } from 'react';
import useSWR from 'swr';

import { serverMessage } from '@/components/account/form-parts';
import { SparkIcon } from '@/components/icons';
import { useSession } from '@/components/session/SessionProvider';
import type { CompleteTaskDto, DailyTaskTodayDto } from '@/lib/api-types';
import { ApiClientError, apiRequest } from '@/lib/client/api-client';
import { countdownText, isSameLocalDay, nextUtcMidnight, utcDay } from '@/lib/format/daily-task';
import { TASK_MESSAGES } from '@/lib/validation/task-messages';

import './tasks.css';

export const DAILY_TASK_PATH = '/api/dailytasks/today';
/** After the countdown ends, how often to ask for the new day's task until it arrives (client and server clocks may differ a little). */
const NEW_DAY_POLL_MS = 15_000;

type TaskKey = readonly [path: string, userId: string];
const fetchTask = ([path]: TaskKey) => apiRequest<DailyTaskTodayDto>(path);

const statusOf = (error: unknown) => (error instanceof ApiClientError ? error.status : undefined);
/** A refusal or "no task" will not change by asking again at once; network trouble and 5xx might. */
const worthRetrying = (error: unknown) => {
  const status = statusOf(error);
  return status === undefined || status >= 500;
};

/** The current time, updated every second while mounted. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

type Notice = { ok: boolean; text: string } | null;

/**
 * The VIP member's daily task on home (spec sections 4, 6, 8, 9): the task,
 * the complete button ('Task Completed' and disabled once the member's last
 * completion is today by the local calendar, or the server says today's UTC
 * task is done), the reward counter and streak, and 'Next task in: HHh MMm
 * SSs' to the next UTC midnight. `fallback` is the unlock banner, shown if
 * the server says the member's VIP has ended.
 */
export function DailyTaskBanner({ fallback }: { fallback: ReactNode }) {
  const { user, updateUser, refreshUser } = useSession();
  const now = useNow();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);

  const key: TaskKey | null = user ? [DAILY_TASK_PATH, user._id] : null;
  const { data, error, mutate } = useSWR(key, fetchTask, {
    shouldRetryOnError: worthRetrying,
    // Past the countdown, keep asking until the new day's task arrives (the server's clock may be a little behind).
    refreshInterval: (latest) => (latest && Date.parse(latest.nextTaskAt) <= Date.now() ? NEW_DAY_POLL_MS : 0),
  });

  // A new UTC day began while the page was open: ask for its task at once.
  const today = utcDay(now);
  const shownDay = useRef(today);
  useEffect(() => {
    if (shownDay.current === today) return;
    shownDay.current = today;
    void mutate();
  }, [today, mutate]);

  const status = statusOf(error);
  // VIP ended since the session was loaded: the session learns it, and the unlock banner comes back.
  useEffect(() => {
    if (status === 403) void refreshUser().catch(() => undefined);
  }, [status, refreshUser]);
  if (status === 403) return <>{fallback}</>;

  // A 404 after the day changed means the new day has no task: yesterday's must not stay on screen.
  const task = status === 404 ? undefined : data;
  // The task's own end when there is one (so the countdown can run out); otherwise simply the next UTC midnight.
  const msLeft = (task ? Date.parse(task.nextTaskAt) : nextUtcMidnight(now).getTime()) - now;
  const completed = Boolean(task?.completed) || isSameLocalDay(user?.lastTaskCompleted, now);

  async function complete() {
    if (!task || busy) return;
    setBusy(true);
    setNotice(null);
    try {
      const result = await apiRequest<CompleteTaskDto>('/api/users/complete-task', { method: 'POST' });
      updateUser({ tasks: result.tasks, lastTaskCompleted: result.lastTaskCompleted });
      await mutate({ ...task, completed: true, streak: result.streak }, { revalidate: false });
      setNotice({
        ok: true,
        text: `Well done! Task completed. You have completed ${result.tasks} ${result.tasks === 1 ? 'task' : 'tasks'}.`,
      });
    } catch (failure) {
      setNotice({ ok: false, text: serverMessage(failure, TASK_MESSAGES.completeFailed) });
      // Already done (another tab) or no task any more: show the server's view.
      if (statusOf(failure) === 409 || statusOf(failure) === 404) void mutate();
    } finally {
      setBusy(false);
      // The button may now be disabled and lose focus: keep the keyboard user at the outcome.
      requestAnimationFrame(() => noticeRef.current?.focus());
    }
  }

  const tasks = user?.tasks ?? 0;
  const problem = !task && error ? (status === 404 ? TASK_MESSAGES.noTaskTodayBanner : TASK_MESSAGES.loadFailed) : null;

  return (
    <aside className="section banner daily-task" aria-labelledby="daily-task" aria-busy={!task && !problem}>
      <div className="daily-task-body">
        <span className="eyebrow">
          <SparkIcon size={14} /> VIP daily task
        </span>
        <h2 id="daily-task">Today’s task</h2>
        {task ? (
          <p className="daily-task-text" data-testid="daily-task-text">
            {task.description}
          </p>
        ) : (
          <p className="daily-task-problem" role="status">
            {problem ?? 'Loading today’s task…'}
          </p>
        )}
        <p className="daily-task-rewards">
          <span>
            Reward counter: <strong data-testid="daily-task-count">{tasks}</strong>
          </span>
          {task && (
            <span>
              Streak: <strong data-testid="daily-task-streak">{task.streak}</strong> {task.streak === 1 ? 'day' : 'days'}
            </span>
          )}
        </p>
      </div>
      <div className="daily-task-side">
        {task && (
          <button type="button" className="btn btn-primary" onClick={complete} disabled={completed || busy} aria-busy={busy}>
            {completed ? 'Task Completed' : busy ? 'Completing…' : 'Complete Task'}
          </button>
        )}
        {problem && status !== 404 && (
          <button type="button" className="btn btn-ghost" onClick={() => void mutate()}>
            Try again
          </button>
        )}
        <p className="daily-task-countdown" role="timer" data-testid="daily-task-countdown">
          {countdownText(msLeft)}
        </p>
      </div>
      <p
        ref={noticeRef}
        tabIndex={-1}
        className={`daily-task-notice ${notice?.ok === false ? 'form-error' : 'form-success'}`}
        role="status"
      >
        {notice?.text ?? ''}
      </p>
    </aside>
  );
}
