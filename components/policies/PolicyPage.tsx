import type { Metadata } from 'next';

import { POLICIES, type PolicySlug } from '@/components/policies';
import { ArticleStructuredData } from '@/components/seo/StructuredData';
import { getConfig } from '@/lib/config/server';
import { pageMetadata } from '@/lib/seo/metadata';

/**
 * One policy page, prerendered at its own route (app/<slug>/page.tsx). Fixed
 * routes rather than one dynamic [policy] segment, so every other path falls
 * to app/[...missing], whose 404 renders per request with the CSP nonce.
 */
export function policyMetadata(slug: PolicySlug): Metadata {
  const policy = POLICIES[slug];
  return pageMetadata({ title: policy.title, description: policy.description, path: `/${slug}`, type: 'article' });
}

export function PolicyPage({ slug }: { slug: PolicySlug }) {
  const policy = POLICIES[slug];
  const { operator } = getConfig();
  const { Component } = policy;
  return (
    <article className="prose">
      <ArticleStructuredData
        path={`/${slug}`}
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
  return new Date(`${isoDate}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
