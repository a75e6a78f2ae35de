'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch, type FieldValues, type Path, type Resolver } from 'react-hook-form';

import { serverMessage, StatusLine, type Status } from '@/components/account/form-parts';
import { apiRequest } from '@/lib/client/api-client';
import { NOTICE_REASONS, REPORT_REASON_LABELS } from '@/lib/report-reasons';
import { counterNoticeSchema, dmcaNoticeSchema, lawsuitSchema, noticeSchema } from '@/lib/validation/notices';

import './trust.css';

/**
 * The public legal forms (decision 016): a notice from anyone, a DMCA
 * notice, a counter-notice and the claimant's lawsuit report. One component
 * so each form has the same labels, errors and success state; what each
 * form asks for is the field list below, in the order the law lists it.
 */
export type LegalFormKind = 'notice' | 'dmca' | 'counter' | 'lawsuit';

interface Field {
  name: string;
  label: string;
  kind: 'text' | 'email' | 'tel' | 'textarea' | 'reason' | 'checkbox';
  hint?: string;
  autoComplete?: string;
}

const CONTACT: Field[] = [
  { name: 'name', label: 'Your full name', kind: 'text', autoComplete: 'name' },
  { name: 'email', label: 'Email address (we reply here)', kind: 'email', autoComplete: 'email' },
];

const FIELDS: Record<LegalFormKind, Field[]> = {
  notice: [
    {
      name: 'video',
      label: 'Address of the video',
      kind: 'text',
      hint: 'Copy it from your browser’s address bar, e.g. https://…/video/abc123, or the video’s id.',
    },
    { name: 'reason', label: 'What is wrong', kind: 'reason' },
    {
      name: 'details',
      label: 'Explain why it should come down',
      kind: 'textarea',
      hint: 'Who is shown, what was not agreed, which law it breaks. Do not attach or link the images.',
    },
    ...CONTACT,
    { name: 'signature', label: 'Signature (type your full name)', kind: 'text' },
    {
      name: 'goodFaith',
      label:
        'I declare in good faith that the information in this notice is accurate and complete. For intimate images: I am the person shown or authorised to act for them, and the images were published without their consent.',
      kind: 'checkbox',
    },
  ],
  dmca: [
    {
      name: 'video',
      label: 'Address of the infringing video on this site',
      kind: 'text',
      hint: 'One video per notice: its page address, e.g. https://…/video/abc123.',
    },
    {
      name: 'work',
      label: 'The copyrighted work',
      kind: 'textarea',
      hint: 'Describe the work you own or represent, and where the original can be seen if online.',
    },
    ...CONTACT,
    { name: 'address', label: 'Postal address', kind: 'textarea', autoComplete: 'street-address' },
    { name: 'phone', label: 'Phone number', kind: 'tel', autoComplete: 'tel' },
    { name: 'signature', label: 'Signature (type your full name)', kind: 'text' },
    {
      name: 'goodFaith',
      label:
        'I have a good faith belief that use of the material in the manner complained of is not authorised by the copyright owner, its agent, or the law.',
      kind: 'checkbox',
    },
    {
      name: 'perjury',
      label:
        'The information in this notice is accurate, and under penalty of perjury, I am the owner, or authorised to act on behalf of the owner, of an exclusive right that is allegedly infringed.',
      kind: 'checkbox',
    },
  ],
  counter: [
    { name: 'video', label: 'Your video’s id', kind: 'text' },
    {
      name: 'material',
      label: 'The material that was removed and where it appeared',
      kind: 'textarea',
      hint: 'Its title and its address on this site before it was removed.',
    },
    { name: 'name', label: 'Your full legal name', kind: 'text', autoComplete: 'name' },
    { name: 'address', label: 'Postal address', kind: 'textarea', autoComplete: 'street-address' },
    { name: 'phone', label: 'Phone number', kind: 'tel', autoComplete: 'tel' },
    { name: 'signature', label: 'Signature (type your full legal name)', kind: 'text' },
    {
      name: 'mistake',
      label:
        'I swear, under penalty of perjury, that I have a good faith belief that the material was removed or disabled as a result of mistake or misidentification of the material.',
      kind: 'checkbox',
    },
    {
      name: 'jurisdiction',
      label:
        'I consent to the jurisdiction of the Federal District Court for the judicial district in which my address is located (or, if outside the United States, any judicial district in which the service provider may be found), and I will accept service of process from the person who sent the notice or their agent.',
      kind: 'checkbox',
    },
  ],
  lawsuit: [
    {
      name: 'details',
      label: 'The court and the case number',
      kind: 'textarea',
      hint: 'The action you filed seeking a court order to restrain the uploader.',
    },
  ],
};

const SCHEMAS = { notice: noticeSchema, dmca: dmcaNoticeSchema, counter: counterNoticeSchema, lawsuit: lawsuitSchema } as const;
const ENDPOINTS: Record<LegalFormKind, string> = {
  notice: '/api/notices',
  dmca: '/api/copyright/notices',
  counter: '/api/copyright/counter-notices',
  lawsuit: '/api/copyright/lawsuits',
};
const SUBMIT: Record<LegalFormKind, string> = {
  notice: 'Send the notice',
  dmca: 'Send the copyright notice',
  counter: 'Send the counter-notice',
  lawsuit: 'Tell us about the lawsuit',
};

export function LegalNoticeForm({ kind, defaults = {} }: { kind: LegalFormKind; defaults?: Record<string, string> }) {
  const [status, setStatus] = useState<Status>(null);
  const [done, setDone] = useState<{ message: string; reference?: string } | null>(null);
  const {
    register,
    handleSubmit,
    control,
    formState: { errors, isSubmitting },
  } = useForm<FieldValues>({
    resolver: zodResolver(SCHEMAS[kind] as never) as unknown as Resolver<FieldValues>,
    mode: 'onTouched',
    defaultValues: { ...defaults },
  });
  const reason = useWatch({ control, name: 'reason' }) as string | undefined;

  const onSubmit = handleSubmit(async (values) => {
    setStatus({ ok: true, text: 'Sending…' });
    try {
      const answer = await apiRequest<{ message: string; reference?: string }>(ENDPOINTS[kind], { json: values });
      setDone(answer);
      setStatus(null);
    } catch (error) {
      setStatus({ ok: false, text: serverMessage(error, 'Your notice could not be sent. Please try again, or email us.') });
    }
  });

  if (done)
    return (
      <div className="form-card legal-form-done" role="status">
        <p className="form-success">{done.message}</p>
        {done.reference && (
          <p>
            Your reference: <strong className="legal-reference">{done.reference}</strong>
          </p>
        )}
      </div>
    );

  return (
    <form className="form-card legal-form" onSubmit={onSubmit} noValidate aria-label={SUBMIT[kind]}>
      {FIELDS[kind].map((field) => {
        const id = `${kind}-${field.name}`;
        const error = errors[field.name]?.message as string | undefined;
        const described = `${field.hint ? `${id}-hint ` : ''}${id}-error`;
        const props = {
          id,
          'aria-invalid': Boolean(error),
          'aria-describedby': described,
          ...register(field.name as Path<FieldValues>),
        };
        if (field.kind === 'checkbox')
          return (
            <div className="field legal-check" key={field.name}>
              <label htmlFor={id}>
                <input type="checkbox" {...props} /> <span>{field.label}</span>
              </label>
              <p id={`${id}-error`} className="field-error">
                {error}
              </p>
            </div>
          );
        return (
          <div className="field" key={field.name}>
            <label htmlFor={id}>{field.label}</label>
            {field.hint && (
              <p id={`${id}-hint`} className="legal-hint">
                {field.hint}
              </p>
            )}
            {field.kind === 'textarea' ? (
              <textarea rows={4} autoComplete={field.autoComplete} {...props} />
            ) : field.kind === 'reason' ? (
              <select defaultValue="" {...props}>
                <option value="" disabled>
                  Choose…
                </option>
                {NOTICE_REASONS.map((value) => (
                  <option key={value} value={value}>
                    {value === 'non_consensual'
                      ? 'Intimate images shared without consent'
                      : value === 'underage'
                        ? 'Someone under 18'
                        : REPORT_REASON_LABELS[value].label}
                  </option>
                ))}
              </select>
            ) : (
              <input type={field.kind} autoComplete={field.autoComplete} {...props} />
            )}
            <p id={`${id}-error`} className="field-error">
              {error}
            </p>
            {field.kind === 'reason' && reason === 'copyright' && (
              <p className="legal-hint">
                Copyright complaints need the details the law asks for: please use the{' '}
                <a href="/copyright/notice">copyright notice form</a>.
              </p>
            )}
          </div>
        );
      })}
      <StatusLine status={status} />
      <button
        type="submit"
        className="btn btn-primary btn-block"
        disabled={isSubmitting || (kind === 'notice' && reason === 'copyright')}
      >
        {isSubmitting ? 'Sending…' : SUBMIT[kind]}
      </button>
    </form>
  );
}
