/**
 * Issue 37, decision 043: a control the server renders, whose handler only exists once React has hydrated the page,
 * is disabled and busy in the server's HTML, so a press before hydration is not silently lost. (The browser side,
 * one press answered on a slowed CPU, is e2e/first-press.spec.ts.)
 */
import { renderToString } from 'react-dom/server';

import { ReportDialog } from '@/components/community/ReportDialog';
import { ShareButton } from '@/components/videos/ShareButton';

describe('controls in the server HTML', () => {
  it('renders Share disabled and aria-busy', () => {
    const html = renderToString(
      <ShareButton url="https://example.org/video/abc" embedCode="<iframe></iframe>" title="A video" />,
    );
    expect(html).toMatch(/<button[^>]*\bdisabled=""[^>]*>/);
    expect(html).toMatch(/<button[^>]*\baria-busy="true"[^>]*>/);
  });

  it('renders Report disabled and aria-busy', () => {
    const html = renderToString(<ReportDialog targetType="video" target="abc" />);
    expect(html).toMatch(/<button[^>]*\bdisabled=""[^>]*>/);
    expect(html).toMatch(/<button[^>]*\baria-busy="true"[^>]*>/);
  });
});
