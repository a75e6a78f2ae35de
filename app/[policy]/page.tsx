import type { Metadata } from 'next';
import { notFound } from 'next/navigation';

import { POLICIES, type PolicySlug } from '@/components/policies';
import { ArticleStructuredData } from '@/components/seo/StructuredData';
import { getConfig } from '@/lib/config/server';
import { pageMetadata } from '@/lib/seo/metadata';

// The six policy pages; any other top-level path that no route claims is a 404.
export const dynamicParams = false;

export function generateStaticParams() {
  return Object.keys(POLICIES).map((policy) => ({ policy }));
}

type Props = { params: Promise<{ policy: string }> };

function findPolicy(policy: string) {
  if (!Object.hasOwn(POLICIES, policy)) notFound();
  return { slug: policy as PolicySlug, ...POLICIES[policy as PolicySlug] };
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const policy = findPolicy((await params).policy);
  return pageMetadata({ title: policy.title, description: policy.description, path: `/${policy.slug}`, type: 'article' });
}

export default async function PolicyPage({ params }: Props) {
  const policy = findPolicy((await params).policy);
  const { operator } = getConfig();
  const { Component } = policy;
  return (
    <article className="prose">
      <ArticleStructuredData
        path={`/${policy.slug}`}
        headline={policy.title}
        description={policy.description}
        dateModified={policy.lastUpdated}
      />
      <header className="page-header">
        <span className="eyebrow">{operator.siteName} policies</span>
        <h1>{policy.title}</h1>
        <p className="policy-meta">
          Last updated <time dateTime={policy.lastUpdated}>{formatDate(policy.lastUpdated)}</time>
        </p>
      </header>
      <Component operator={operator} />
    </article>
  );
}

function formatDate(isoDate: string): string {
  return new Date(`${isoDate}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}
