import { jsonLdText, type JsonLdObject } from '@/lib/seo/json-ld';

/**
 * The only element that renders JSON-LD (ESLint refuses `type="application/ld+json"` anywhere else).
 * A data block, not a script: browsers never run it, so it needs no CSP nonce or hash, but its text must
 * not be able to end the element early, which jsonLdText guarantees.
 */
export function JsonLd({ id, data }: { id: string; data: JsonLdObject }) {
  return <script type="application/ld+json" id={id} dangerouslySetInnerHTML={{ __html: jsonLdText(data) }} />;
}
