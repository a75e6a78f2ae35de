'use client';

import { useRouter } from 'next/navigation';
import { useId, useRef, useState, type FormEvent } from 'react';

import { serverMessage, StatusLine, type Status } from '@/components/account/form-parts';
import { apiRequest } from '@/lib/client/api-client';
import { useHydrated } from '@/lib/client/use-hydrated';

import { useAdminAnnounce } from './AdminAnnouncer';

export interface ActionField {
  name: string;
  label: string;
  kind?: 'text' | 'textarea' | 'number';
  /** A required field must be filled before the request is sent; its message is shown beside it. */
  requiredMessage?: string;
  defaultValue?: string;
  maxLength?: number;
  /** Quick picks that fill the field. */
  templates?: readonly string[];
}

export interface AdminActionProps {
  /** The button that opens the form (or sends at once when there are no fields and no confirmation). */
  label: string;
  method: 'POST' | 'PATCH' | 'DELETE';
  url: string;
  fields?: ActionField[];
  /** Extra JSON sent with the fields (e.g. { action: 'remove' }). */
  body?: Record<string, unknown>;
  confirmLabel?: string;
  /** Shown after success (on the admin page's confirmation line, which outlives this item); the page's server data is refreshed too. */
  done: string;
  danger?: boolean;
  /** Ask before sending even without fields. */
  confirm?: string;
}

/**
 * One admin action as a small form: open, fill (reason, note, days), confirm,
 * then the server's answer and a refresh of the page's server-rendered data.
 * Errors keep the form open with the server's message, so nothing typed is lost.
 */
export function AdminAction({ label, method, url, fields = [], body, confirmLabel, done, danger, confirm }: AdminActionProps) {
  const router = useRouter();
  const announce = useAdminAnnounce();
  const id = useId();
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((field) => [field.name, field.defaultValue ?? ''])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Status>(null);
  const [busy, setBusy] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const needsForm = fields.length > 0 || Boolean(confirm);

  async function send() {
    const missing = Object.fromEntries(
      fields
        .filter((field) => field.requiredMessage && !values[field.name]?.trim())
        .map((field) => [field.name, field.requiredMessage!]),
    );
    setErrors(missing);
    if (Object.keys(missing).length) return;
    const json: Record<string, unknown> = { ...body };
    for (const field of fields) {
      const value = values[field.name]?.trim() ?? '';
      if (value) json[field.name] = field.kind === 'number' ? Number(value) : value;
    }
    setBusy(true);
    setStatus({ ok: true, text: 'Working…' });
    try {
      await apiRequest(url, { method, json });
      announce(done);
      setStatus(null);
      setOpen(false);
      router.refresh();
      requestAnimationFrame(() => opener.current?.focus());
    } catch (error) {
      setStatus({ ok: false, text: serverMessage(error, 'That did not work. Please try again.') });
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void send();
  }

  const buttonClass = `btn ${danger ? 'admin-btn-reject' : 'btn-ghost'}`;
  return (
    <div className="admin-action">
      {!open && (
        // Disabled until the page hydrates (issue 37): a click on the server's HTML before then would be lost.
        <button
          ref={opener}
          type="button"
          className={buttonClass}
          disabled={busy || !hydrated}
          aria-busy={!hydrated || undefined}
          onClick={() => (needsForm ? setOpen(true) : void send())}
        >
          {label}
        </button>
      )}
      {open && (
        <form
          className="admin-form"
          onSubmit={submit}
          noValidate
          aria-label={label}
          onKeyDown={(event) => event.key === 'Escape' && setOpen(false)}
        >
          {confirm && <p>{confirm}</p>}
          {fields.map((field) => (
            <div className="field" key={field.name}>
              <label htmlFor={`${id}-${field.name}`}>{field.label}</label>
              {field.templates && (
                <div className="admin-reasons">
                  <ul>
                    {field.templates.map((template) => (
                      <li key={template}>
                        <button
                          type="button"
                          className="admin-reason"
                          aria-pressed={values[field.name] === template}
                          onClick={() => setValues({ ...values, [field.name]: template })}
                        >
                          {template}
                        </button>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
              {(() => {
                const common = {
                  id: `${id}-${field.name}`,
                  value: values[field.name],
                  maxLength: field.maxLength,
                  'aria-invalid': Boolean(errors[field.name]),
                  'aria-describedby': `${id}-${field.name}-error`,
                  autoFocus: field === fields[0],
                  onChange: (event: { target: { value: string } }) => setValues({ ...values, [field.name]: event.target.value }),
                };
                return field.kind === 'textarea' ? (
                  <textarea {...common} />
                ) : (
                  <input
                    {...common}
                    type={field.kind === 'number' ? 'number' : 'text'}
                    inputMode={field.kind === 'number' ? 'numeric' : undefined}
                  />
                );
              })()}
              <p id={`${id}-${field.name}-error`} className="field-error">
                {errors[field.name]}
              </p>
            </div>
          ))}
          <div className="admin-actions">
            <button type="submit" className={`btn ${danger ? 'admin-btn-reject' : 'btn-primary'}`} disabled={busy}>
              {confirmLabel ?? label}
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <StatusLine status={status} />
    </div>
  );
}
