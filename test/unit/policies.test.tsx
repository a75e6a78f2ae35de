import { renderToStaticMarkup } from 'react-dom/server';

import { POLICIES } from '@/components/policies';
import { loadConfig } from '@/lib/config/server';
import { STORAGE_INVENTORY } from '@/lib/storage-inventory';

const { operator } = loadConfig({
  SITE_NAME: 'Chrysalis',
  OPERATOR_NAME: 'Example Media Ltd',
  OPERATOR_EMAIL: 'hello@example.org',
});

describe.each(Object.entries(POLICIES))('%s', (slug, policy) => {
  const html = renderToStaticMarkup(<policy.Component operator={operator} />);

  it('links every "On this page" entry to a heading that exists, and lists every section', () => {
    const toc = /<nav aria-label="On this page">(.*?)<\/nav>/s.exec(html)?.[1] ?? '';
    const anchors = [...toc.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]);
    const headings = [...html.matchAll(/<h2 id="([^"]+)"/g)].map((m) => m[1]);
    expect(anchors.length).toBeGreaterThan(3);
    expect(anchors).toEqual(headings);
    // Links elsewhere in the text must land on a heading too.
    for (const [, id] of html.matchAll(/href="#([^"]+)"/g)) expect(headings).toContain(id);
  });

  it('names the operator from configuration and has a meta description of sensible length', () => {
    expect(html).toContain('Chrysalis');
    if (slug === 'privacy-policy' || slug === 'terms-of-use') expect(html).toContain('Example Media Ltd');
    expect(policy.description.length).toBeGreaterThan(50);
    expect(policy.description.length).toBeLessThanOrEqual(160);
  });
});

it('the cookie policy lists every stored key from the inventory', () => {
  const CookiePolicy = POLICIES['cookie-policy'].Component;
  const html = renderToStaticMarkup(<CookiePolicy operator={operator} />);
  for (const entry of STORAGE_INVENTORY) expect(html).toContain(entry.name);
});

it('the privacy policy says which identity documents are kept, why and for how long, from configuration', () => {
  const PrivacyPolicy = POLICIES['privacy-policy'].Component;
  const configured = loadConfig({
    SITE_NAME: 'Chrysalis',
    VERIFICATION_RETENTION_DAYS: '45',
    RECORDS_RETENTION_YEARS: '9',
  }).operator;
  const html = renderToStaticMarkup(<PrivacyPolicy operator={configured} />);
  expect(html).toContain('a selfie holding it');
  expect(html).toContain('18 U.S.C. 2257');
  expect(html).toMatch(/deleted after 45 days/);
  expect(html).toMatch(/kept for 9 years/);
});

describe('notices and copyright in the policies (decision 016)', () => {
  const configured = loadConfig({
    SITE_NAME: 'Chrysalis',
    REPEAT_INFRINGER_STRIKES: '2',
    COUNTER_NOTICE_WAIT_BUSINESS_DAYS: '12',
  }).operator;
  it('the Copyright Policy states the configured strike limit and wait, and links the forms', () => {
    const copyright = POLICIES['copyright-policy'];
    const html = renderToStaticMarkup(<copyright.Component operator={configured} />);
    expect(html).toContain('reaches 2 strikes');
    expect(html).toContain('12 business days after we received your counter-notice');
    expect(html).toContain('href="/copyright/notice"');
    expect(html).toContain('href="/copyright/counter-notice"');
  });
  it('the Community Standards link the report content form and state the 48-hour clock', () => {
    const standards = POLICIES['community-standards'];
    const html = renderToStaticMarkup(<standards.Component operator={configured} />);
    expect(html).toContain('href="/report-content"');
    expect(html).toContain('within 48 hours');
  });
});
