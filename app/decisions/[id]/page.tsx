import type { Metadata } from 'next';
import { connection } from 'next/server';

import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { DecisionStatement } from '@/components/trust/DecisionStatement';
import { pageActor } from '@/lib/server/auth/session';
import { ApiError } from '@/lib/server/errors';
import { forPage } from '@/lib/server/page-access';
import { getDecision } from '@/lib/server/trust/statements';
import { firstValues } from '@/lib/search-params';
import { pageMetadata } from '@/lib/seo/metadata';
import { decisionIdParamsSchema, decisionLinkSchema } from '@/lib/validation/trust';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Statement of reasons',
    description: 'What was decided about your content or account, why, and how to appeal.',
    path: '/decisions',
    noindex: true,
  });
}

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * /decisions/{id}: a statement of reasons and its appeal. Only the member it
 * is about (signed in, or through the link their email carries) and admins
 * see it; everyone else gets the 404 page, a visitor the login page.
 */
export default async function DecisionPage({ params, searchParams }: Props) {
  await connection();
  const { id } = await params;
  const parsedId = decisionIdParamsSchema.safeParse({ id });
  const parsedKey = decisionLinkSchema.safeParse(firstValues(await searchParams));
  const key = parsedKey.success ? parsedKey.data : { e: 'invalid', k: 'invalid' };
  const path = `/decisions/${id}`;
  let result: Awaited<ReturnType<typeof getDecision>> | null = null;
  let expired: string | null = null;
  try {
    // An id that is not a uuid is the same 404 as someone else's.
    result = await forPage(
      parsedId.success
        ? getDecision(await pageActor(), parsedId.data.id, key)
        : Promise.reject(new ApiError(404, 'Decision not found')),
      path,
    );
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 410) throw error;
    expired = error.message;
  }
  const linkKey = result?.reader === 'link' && key.e && key.k ? { e: key.e, k: key.k } : undefined;
  return (
    <>
      <WebSiteStructuredData path={path} name="Statement of reasons" />
      <header className="page-header">
        <span className="eyebrow">Statement of reasons</span>
        <h1>{result ? result.decision.actionLabel : 'This link has expired'}</h1>
        <p>
          {result
            ? 'We tell you what we decided, on which rule or law, and how to ask for a second look.'
            : 'The decision is still there: log in to read it, or write to us if you cannot.'}
        </p>
      </header>
      {result ? (
        <DecisionStatement decision={result.decision} canAppeal={result.reader !== 'admin'} linkKey={linkKey} />
      ) : (
        <p role="alert">{expired}</p>
      )}
    </>
  );
}
