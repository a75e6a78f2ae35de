/**
 * The one way JSON-LD leaves the server: JSON text that is safe as the raw
 * content of a <script type="application/ld+json"> element.
 *
 * A script element's text ends at the first `</script` followed by a space,
 * tab, newline, `/` or `>`, in any case, and `<!--` can change how the parser
 * looks for that end; escaping every `<` rules out both whatever the text
 * holds. `>` and `&` are escaped too so the text is inert in any HTML context
 * it may be copied into, and U+2028/U+2029 because older JavaScript parsers
 * read them as line ends. All five can only occur inside JSON strings, where
 * \uXXXX escapes decode to the same characters: JSON.parse gives back the
 * exact data.
 */

export type JsonLdValue = string | number | boolean | null | JsonLdValue[] | JsonLdObject;
/** Undefined members are left out, as JSON.stringify does, so optional fields can be spread in. */
export type JsonLdObject = { [key: string]: JsonLdValue | undefined };

const UNSAFE_IN_SCRIPT = /[<>&\u2028\u2029]/g;

const unicodeEscape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

export function jsonLdText(data: JsonLdObject): string {
  return JSON.stringify(data).replace(UNSAFE_IN_SCRIPT, unicodeEscape);
}
