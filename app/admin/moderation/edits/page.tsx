import type { Metadata } from 'next';

import { AdminAction } from '@/components/admin/AdminAction';
import { AuditChanges } from '@/components/admin/AuditChanges';
import { Pagination } from '@/components/admin/Pagination';
import type { TextEditDto } from '@/lib/api-types';
import { pageActor } from '@/lib/server/auth/session';
import { forPage } from '@/lib/server/page-access';
import { listTextEdits } from '@/lib/server/videos/text-edits';
import { firstValues } from '@/lib/search-params';
import { pageMetadata } from '@/lib/seo/metadata';
import { REJECTION_REASON_MAX, REJECTION_TEMPLATES, textEditQueueQuerySchema } from '@/lib/validation/videos';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Text edits',
    description: 'Owners’ new titles, descriptions and tags for approved videos, waiting for review.',
    path: '/admin/moderation/edits',
    noindex: true,
  });
}

const dateTimeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

function EditCard({ edit }: { edit: TextEditDto }) {
  const headingId = `text-edit-${edit.streamVideoId}`;
  const base = { url: `/api/admin/videos/${edit.streamVideoId}/text-edit`, method: 'PATCH' as const };
  return (
    <article className="admin-report" aria-labelledby={headingId}>
      <h3 id={headingId}>
        <a href={`/video/${edit.streamVideoId}`}>“{edit.title}”</a> by {edit.uploader.username}
      </h3>
      <p className="admin-muted">
        Changed {dateTimeFormat.format(new Date(edit.proposedAt))} UTC. The approved text is public until you decide.
      </p>
      <AuditChanges details={{ changes: edit.changes }} />
      <div className="admin-actions">
        <AdminAction
          {...base}
          label="Approve changes"
          body={{ action: 'approve', editId: edit.editId }}
          done="Changes approved: the new text is live."
        />
        <AdminAction
          {...base}
          label="Reject changes…"
          confirmLabel="Reject changes"
          danger
          body={{ action: 'reject', editId: edit.editId }}
          fields={[
            {
              name: 'reason',
              label: 'Reason (the owner reads it)',
              kind: 'textarea',
              requiredMessage: 'Give a reason for the rejection',
              maxLength: REJECTION_REASON_MAX,
              templates: REJECTION_TEMPLATES,
            },
          ]}
          done="Changes rejected: the video keeps its approved text."
        />
      </div>
    </article>
  );
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Owners' waiting text edits of approved videos (decision 009), oldest first; the video stays public meanwhile. */
export default async function TextEditsPage({ searchParams }: Props) {
  const parsed = textEditQueueQuerySchema.safeParse(firstValues(await searchParams));
  const query = parsed.success ? parsed.data : textEditQueueQuerySchema.parse({});
  const { edits, total, pagination } = await forPage(
    listTextEdits(await pageActor(), { page: query.page, limit: query.limit }),
    '/admin/moderation/edits',
  );
  return (
    <>
      <header className="page-header">
        <span className="eyebrow">Admin Panel · Moderation</span>
        <h1>Text edits</h1>
        <p>
          Owners’ new titles, descriptions and tags for approved videos, oldest first ({total} waiting). Each video stays public
          with its approved text until you decide; a category change needs no review.
        </p>
        <p>
          <a href="/admin/moderation">Back to the video queue</a>
        </p>
      </header>
      {edits.length === 0 ? (
        <div className="empty-state">
          <p>No text edits waiting for review.</p>
        </div>
      ) : (
        <ol className="admin-list" aria-label="Text edits waiting for review">
          {edits.map((edit) => (
            <li key={edit.streamVideoId}>
              <EditCard edit={edit} />
            </li>
          ))}
        </ol>
      )}
      <Pagination path="/admin/moderation/edits" params={{}} page={query.page} hasMore={pagination.hasMore} />
    </>
  );
}
