import { notFound } from 'next/navigation';
import { connection } from 'next/server';

// The 404's title and robots, as not-found.tsx gives them to every other missing page.
export { generateMetadata } from '../not-found';

/**
 * Every path no other route claims. Without it Next answers them with the
 * 404 page it prerendered at build time, whose scripts carry no nonce and so
 * could not run under the nonce policy proxy.ts sends (decision 008); here
 * the 404 renders per request, nonce included.
 */
export default async function MissingPage(): Promise<never> {
  await connection();
  notFound();
}
