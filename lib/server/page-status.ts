import { logContext } from './log';

/**
 * Gives the page being rendered the status 404 or 410. Next sets a page's status only through notFound(), whose
 * server HTML is empty (components/shell/MissingPage.tsx), so a page that finds nothing renders MissingPage, which
 * is a 200 to Next, and marks its request here; the production server (scripts/serve.ts, whose ObservedResponse
 * writes every head) sends that 200 with this status. The mark must come before the page's first byte: a page
 * under a Suspense boundary (a loading.tsx) has sent its head by then and keeps notFound().
 */
export function setPageStatus(status: 404 | 410): void {
  const context = logContext();
  if (context?.requestId) context.pageStatus = status;
}
