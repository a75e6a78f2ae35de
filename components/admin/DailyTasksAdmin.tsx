'use client';

import { useRef, useState } from 'react';
import useSWR from 'swr';

import { serverMessage } from '@/components/account/form-parts';
import { Spinner } from '@/components/shell/Spinner';
import type { AdminDailyTaskDto, AdminDailyTasksDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';
import { TASK_MESSAGES } from '@/lib/validation/task-messages';

import '@/components/tasks/tasks.css';

import { DailyTaskForm } from './DailyTaskForm';

export const ADMIN_TASKS_PATH = '/api/admin/daily-tasks';

const fetchTasks = (path: string) => apiRequest<AdminDailyTasksDto>(path);
const taskPath = (id: string) => `${ADMIN_TASKS_PATH}/${encodeURIComponent(id)}`;

type Notice = { ok: boolean; text: string } | null;
type SaveValues = { description: string; scheduledFor: string | null };

/** "Wed 6 May 2026" for a UTC day; the day itself stays in a <time>. */
const DAY_LABEL = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const dayLabel = (day: string) => DAY_LABEL.format(new Date(`${day}T00:00:00Z`));
const placeOf = (day: string | null) => (day ? `for ${dayLabel(day)}` : 'to the pool');

/**
 * Admin scheduling of the VIP daily task: today's task as members get it,
 * a form to schedule a task for a UTC day or add it to the pool, and both
 * lists with edit and delete. app/admin/layout.tsx has checked the admin;
 * the API checks every call.
 */
export function DailyTasksAdmin() {
  const { data, error, isLoading, mutate } = useSWR(ADMIN_TASKS_PATH, fetchTasks);
  const [notice, setNotice] = useState<Notice>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);

  function announce(next: Notice) {
    setNotice(next);
    requestAnimationFrame(() => noticeRef.current?.focus());
  }

  async function create(values: SaveValues) {
    const { task } = await apiRequest<{ task: AdminDailyTaskDto }>(ADMIN_TASKS_PATH, { json: values });
    announce({ ok: true, text: `Added the task ${placeOf(task.scheduledFor)}.` });
    await mutate();
  }

  async function update(id: string, values: SaveValues) {
    const { task } = await apiRequest<{ task: AdminDailyTaskDto }>(taskPath(id), { method: 'PATCH', json: values });
    announce({
      ok: true,
      text: task.scheduledFor ? `Saved the task for ${dayLabel(task.scheduledFor)}.` : 'Saved the pool task.',
    });
    await mutate();
  }

  async function remove(task: AdminDailyTaskDto) {
    try {
      await apiRequest(taskPath(task._id), { method: 'DELETE' });
      announce({
        ok: true,
        text: `Deleted the task ${task.scheduledFor ? `for ${dayLabel(task.scheduledFor)}` : 'from the pool'}.`,
      });
    } catch (failure) {
      announce({ ok: false, text: serverMessage(failure, 'Could not delete the task. Please try again.') });
    }
    await mutate();
  }

  return (
    <div className="tasks-admin">
      <header className="page-header">
        <span className="eyebrow">Admin Panel</span>
        <h1>Daily tasks</h1>
        <p>
          VIP members get one task a day, the same for everyone, from one UTC midnight to the next. Schedule a task for a day, or
          add it to the pool: on days with nothing scheduled, the pool task used least recently is picked.
        </p>
      </header>

      <p
        ref={noticeRef}
        tabIndex={-1}
        role="status"
        className={`admin-notice${notice ? (notice.ok ? ' admin-notice-ok' : ' admin-notice-error') : ''}`}
      >
        {notice?.text}
      </p>

      {isLoading && !data ? (
        <Spinner label="Loading daily tasks…" />
      ) : error && !data ? (
        <div className="empty-state" role="alert">
          <p>Could not load the daily tasks. {serverMessage(error, '')}</p>
          <button type="button" className="btn btn-primary" onClick={() => void mutate()}>
            Try again
          </button>
        </div>
      ) : data ? (
        <>
          <TodayCard today={data.today} />

          <section className="tasks-admin-section form-card" aria-labelledby="task-new-title">
            <h2 id="task-new-title">Add a task</h2>
            <DailyTaskForm
              label="Add a task"
              today={data.today.day}
              submitLabel="Add task"
              busyLabel="Adding…"
              onSubmit={create}
            />
          </section>

          <TaskList
            title="Scheduled"
            id="tasks-scheduled"
            intro="Today and later, soonest first."
            empty="Nothing scheduled. Days without a scheduled task use the pool."
            tasks={data.scheduled}
            today={data.today.day}
            onSave={update}
            onDelete={remove}
          />
          <TaskList
            title="Pool"
            id="tasks-pool"
            intro="Picked least recently used first (never used first, ties at random)."
            empty="The pool is empty. On days with nothing scheduled, VIP members will read: No task available today. Check back later!"
            tasks={data.pool}
            today={data.today.day}
            onSave={update}
            onDelete={remove}
          />
        </>
      ) : null}
    </div>
  );
}

function TodayCard({ today }: { today: AdminDailyTasksDto['today'] }) {
  return (
    <section className="tasks-admin-section tasks-today" aria-labelledby="task-today-title">
      <h2 id="task-today-title">
        Today, <time dateTime={today.day}>{dayLabel(today.day)}</time> (UTC)
      </h2>
      {today.task ? (
        <>
          <p className="task-text" data-testid="admin-today-task">
            {today.task.description}
          </p>
          <p className="task-meta">
            {today.source === 'scheduled' ? 'Scheduled for today' : 'From the pool'} · {today.completions}{' '}
            {today.completions === 1 ? 'member has' : 'members have'} completed it
          </p>
        </>
      ) : (
        <p className="task-text" data-testid="admin-today-task">
          No task today. VIP members read “{TASK_MESSAGES.noTaskTodayBanner}” Schedule a task for today or add one to the pool.
        </p>
      )}
    </section>
  );
}

function TaskList({
  title,
  id,
  intro,
  empty,
  tasks,
  today,
  onSave,
  onDelete,
}: {
  title: string;
  id: string;
  intro: string;
  empty: string;
  tasks: AdminDailyTaskDto[];
  today: string;
  onSave: (id: string, values: SaveValues) => Promise<void>;
  onDelete: (task: AdminDailyTaskDto) => Promise<void>;
}) {
  return (
    <section className="tasks-admin-section" aria-labelledby={`${id}-title`}>
      <div className="section-head">
        <h2 id={`${id}-title`}>
          {title} <span className="admin-tab-count">{tasks.length}</span>
        </h2>
      </div>
      <p className="task-meta">{intro}</p>
      {tasks.length === 0 ? (
        <p className="empty-state tasks-empty">{empty}</p>
      ) : (
        <ul className="task-list" aria-label={`${title} tasks`}>
          {tasks.map((task) => (
            <li key={task._id}>
              <TaskItem task={task} today={today} onSave={(values) => onSave(task._id, values)} onDelete={() => onDelete(task)} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function TaskItem({
  task,
  today,
  onSave,
  onDelete,
}: {
  task: AdminDailyTaskDto;
  today: string;
  onSave: (values: SaveValues) => Promise<void>;
  onDelete: () => Promise<void>;
}) {
  const [mode, setMode] = useState<'view' | 'edit' | 'confirm'>('view');
  const [deleting, setDeleting] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const name = task.scheduledFor ? `Task for ${dayLabel(task.scheduledFor)}` : `Pool task: ${task.description.slice(0, 60)}`;

  function back() {
    setMode('view');
    requestAnimationFrame(() => editButton.current?.focus());
  }

  return (
    <article className="task-item" aria-label={name}>
      {task.scheduledFor && (
        <p className="task-day">
          <time dateTime={task.scheduledFor}>{dayLabel(task.scheduledFor)}</time>
          {task.scheduledFor === today && <span className="task-badge">Today</span>}
        </p>
      )}
      {mode === 'edit' ? (
        <DailyTaskForm
          label={`Edit ${name}`}
          initial={{ description: task.description, scheduledFor: task.scheduledFor ?? '' }}
          today={today}
          submitLabel="Save"
          busyLabel="Saving…"
          autoFocus
          onSubmit={async (values) => {
            await onSave(values);
            setMode('view');
          }}
          onCancel={back}
        />
      ) : (
        <>
          <p className="task-text">{task.description}</p>
          {!task.scheduledFor && (
            <p className="task-meta">
              {task.lastUsedOn
                ? `Last used ${dayLabel(task.lastUsedOn)} · used ${task.timesUsed} ${task.timesUsed === 1 ? 'time' : 'times'}`
                : 'Not used yet'}
            </p>
          )}
          {mode === 'confirm' ? (
            <div className="task-actions" role="group" aria-label="Confirm deletion">
              <span>Delete this task?</span>
              <button
                type="button"
                className="btn btn-primary"
                disabled={deleting}
                onClick={async () => {
                  setDeleting(true);
                  await onDelete();
                  setDeleting(false);
                  setMode('view');
                }}
              >
                {deleting ? 'Deleting…' : 'Yes, delete'}
              </button>
              <button type="button" className="btn btn-ghost" autoFocus onClick={back}>
                Keep it
              </button>
            </div>
          ) : (
            <div className="task-actions">
              <button ref={editButton} type="button" className="btn btn-ghost" onClick={() => setMode('edit')}>
                Edit
              </button>
              <button type="button" className="btn btn-ghost" onClick={() => setMode('confirm')}>
                Delete
              </button>
            </div>
          )}
        </>
      )}
    </article>
  );
}
