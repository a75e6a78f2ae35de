import { connection } from 'next/server';

import { MissingPage, missingPageMetadata } from '@/components/shell/MissingPage';
import { setPageStatus } from '@/lib/server/page-status';

export function generateMetadata() {
  return missingPageMetadata();
}

/**
 * Every path no other route claims, answered 404 with the page rendered on the server (MissingPage). Without
 * this route Next answers them with the 404 page it prerendered at build time, whose scripts carry no nonce and
 * so could not run under the nonce policy proxy.ts sends (decision 008); here the 404 renders per request.
 */
export default async function MissingRoute() {
  await connection();
  setPageStatus(404);
  return <MissingPage />;
}
