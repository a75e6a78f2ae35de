import { Spinner } from '@/components/shell/Spinner';

/**
 * Search renders per request, so client navigations to it show this spinner
 * while the server works. Prerendered pages (home, categories, policies) are
 * prefetched and need none; a root-level loading boundary would also make
 * React outline large prerendered pages behind a spinner on first load.
 */
export default function Loading() {
  return <Spinner label="Searching…" />;
}
