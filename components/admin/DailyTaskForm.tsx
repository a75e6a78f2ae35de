'use client';

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';

import { ApiClientError } from '@/lib/client/api-client';
import { DAILY_TASK_MAX } from '@/lib/validation/task-messages';
import { dailyTaskCreateSchema, taskLength } from '@/lib/validation/tasks';

export interface DailyTaskFormValues {
  description: string;
  /** YYYY-MM-DD (a UTC day), or '' for the pool. */
  scheduledFor: string;
}

type FieldErrors = Partial<Record<keyof DailyTaskFormValues, string>>;

/** A failed save, as the form shows it: beside the field the server named, else above the buttons. */
export function formErrorOf(error: unknown, fallback: string): { field: keyof DailyTaskFormValues | null; message: string } {
  if (!(error instanceof ApiClientError) || !error.status) return { field: null, message: fallback };
  const field =
    error.data.field === 'description' || error.data.field === 'scheduledFor'
      ? error.data.field
      : error.status === 409
        ? 'scheduledFor'
        : null;
  return { field, message: error.message };
}

/**
 * The task form, for a new task and for editing one: the text (with a
 * character counter) and an optional UTC day; empty means the pool. Checked
 * with the API's own schema before sending; the server's answer (a day taken,
 * a past day) shows beside its field. `onSubmit` throws to report a failure.
 */
export function DailyTaskForm({
  initial = { description: '', scheduledFor: '' },
  today,
  submitLabel,
  busyLabel,
  onSubmit,
  onCancel,
  autoFocus = false,
  label,
}: {
  initial?: DailyTaskFormValues;
  /** Today's UTC day: the earliest day the date picker offers. */
  today: string;
  submitLabel: string;
  busyLabel: string;
  onSubmit: (values: { description: string; scheduledFor: string | null }) => Promise<void>;
  onCancel?: () => void;
  autoFocus?: boolean;
  label: string;
}) {
  const id = useId();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const dateInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (autoFocus) textarea.current?.focus();
  }, [autoFocus]);

  const length = taskLength(values.description.trim());

  function focusField(field: keyof DailyTaskFormValues | null) {
    (field === 'scheduledFor' ? dateInput : textarea).current?.focus();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setFormError(null);
    const parsed = dailyTaskCreateSchema.safeParse(values);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path[0] === 'scheduledFor' ? 'scheduledFor' : 'description';
      setErrors({ [field]: issue.message });
      focusField(field);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await onSubmit(parsed.data);
      if (!onCancel) setValues({ description: '', scheduledFor: '' });
    } catch (failure) {
      const { field, message } = formErrorOf(failure, 'Could not save the task. Please try again.');
      if (field) setErrors({ [field]: message });
      else setFormError(message);
      focusField(field);
    } finally {
      setBusy(false);
    }
  }

  const describedBy = (field: keyof DailyTaskFormValues, extra?: string) =>
    [extra, errors[field] ? `${id}-${field}-error` : null].filter(Boolean).join(' ') || undefined;

  return (
    <form
      className="task-form"
      onSubmit={submit}
      noValidate
      aria-label={label}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && onCancel) {
          event.preventDefault();
          onCancel();
        }
      }}
    >
      <div className="field">
        <label htmlFor={`${id}-description`}>Task</label>
        <textarea
          id={`${id}-description`}
          ref={textarea}
          rows={3}
          value={values.description}
          aria-invalid={Boolean(errors.description)}
          aria-describedby={describedBy('description', `${id}-counter`)}
          onChange={(event) => {
            setValues((current) => ({ ...current, description: event.target.value }));
            setErrors((current) => ({ ...current, description: undefined }));
          }}
        />
        <p id={`${id}-counter`} className={`task-form-counter${length > DAILY_TASK_MAX ? ' task-form-over' : ''}`}>
          {length} / {DAILY_TASK_MAX} characters
        </p>
        <p id={`${id}-description-error`} className="field-error" role="alert">
          {errors.description}
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${id}-date`}>Schedule for (UTC day, optional)</label>
        <input
          id={`${id}-date`}
          ref={dateInput}
          type="date"
          min={today}
          value={values.scheduledFor}
          aria-invalid={Boolean(errors.scheduledFor)}
          aria-describedby={describedBy('scheduledFor', `${id}-date-hint`)}
          onChange={(event) => {
            setValues((current) => ({ ...current, scheduledFor: event.target.value }));
            setErrors((current) => ({ ...current, scheduledFor: undefined }));
          }}
        />
        <p id={`${id}-date-hint`} className="task-form-hint">
          Leave empty to add it to the pool, used on days with nothing scheduled.
        </p>
        <p id={`${id}-scheduledFor-error`} className="field-error" role="alert">
          {errors.scheduledFor}
        </p>
      </div>
      <p className="form-error" role="alert">
        {formError}
      </p>
      <div className="task-form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy}>
          {busy ? busyLabel : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="btn btn-ghost" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
