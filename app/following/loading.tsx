import { Spinner } from '@/components/shell/Spinner';

/** The following feed renders per request for the viewer; client navigations show this while the server works. */
export default function Loading() {
  return <Spinner label="Loading your feed…" />;
}
