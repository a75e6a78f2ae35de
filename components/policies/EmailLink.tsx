import { isPlaceholder } from '@/lib/operator';

/**
 * An operator's address as a mailto: link, or, while its variable is unset, the placeholder as plain text: the
 * page still says which variable to set, without a link to `mailto:[contact email — set OPERATOR_EMAIL]`, which
 * is no address (the W3C checker reports it as an invalid URL).
 */
export function EmailLink({ address }: { address: string }) {
  return isPlaceholder(address) ? <>{address}</> : <a href={`mailto:${address}`}>{address}</a>;
}
