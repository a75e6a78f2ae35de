/**
 * Captions (decision 051): limits, language tags and URLs, shared by the server (the service, the media route) and
 * the edit form, so each rule and each URL is written once.
 */

/** The largest captions file taken: a two-hour film's SubRip file is about 100 KB. */
export const CAPTION_FILE_MAX_BYTES = 512 * 1024;
/** Languages per video. */
export const CAPTION_LANGUAGES_MAX = 20;
/** Cues per file: one every 0.7 s for two hours. */
export const CAPTION_CUES_MAX = 10_000;
/** Characters of one cue's text: three long lines are about 150. */
export const CAPTION_CUE_TEXT_MAX = 500;
/** What the file input offers (the server reads the content, not the name). */
export const CAPTION_FILE_ACCEPT = '.vtt,.srt,text/vtt,application/x-subrip';

/** A version: the first 16 hex digits of the SHA-256 of the WebVTT we serve. */
const VERSION = /^[0-9a-f]{16}$/;
/** A BCP 47 tag as Intl.getCanonicalLocales writes it, in a URL: letters, digits and hyphens. */
const LANGUAGE_IN_URL = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8}){0,4}$/;

/** The canonical form of a BCP 47 language tag (`PT-br` → `pt-BR`), or null for anything that is not one. */
export function canonicalLanguage(tag: string): string | null {
  const trimmed = tag.trim();
  if (trimmed.length < 2 || trimmed.length > 35 || !LANGUAGE_IN_URL.test(trimmed)) return null;
  try {
    const [canonical] = Intl.getCanonicalLocales(trimmed);
    return canonical && LANGUAGE_IN_URL.test(canonical) && canonical.toLowerCase() !== 'und' ? canonical : null;
  } catch {
    return null;
  }
}

/** A language's name in itself, as captions menus show it ("Español", "Português (Brasil)"); the tag if unknown. */
export function languageLabel(language: string): string {
  try {
    const name = new Intl.DisplayNames([language], { type: 'language', fallback: 'none' }).of(language);
    return name ? name.charAt(0).toLocaleUpperCase(language) + name.slice(1) : language;
  } catch {
    return language;
  }
}

/** The languages the edit form offers first (any other BCP 47 tag can be typed). */
export const COMMON_CAPTION_LANGUAGES = [
  'en',
  'es',
  'fr',
  'de',
  'it',
  'pt',
  'pt-BR',
  'nl',
  'pl',
  'sv',
  'tr',
  'ru',
  'uk',
  'ar',
  'he',
  'hi',
  'ja',
  'ko',
  'zh-Hans',
  'zh-Hant',
] as const;

/** The served file's name under the video's media folder: captions/{language}.{version}.vtt. */
export const captionFileName = (language: string, version: string) => `captions/${language}.${version}.vtt`;

/** The URL of one language's captions. */
export const captionUrl = (streamVideoId: string, language: string, version: string) =>
  `/media/videos/${streamVideoId}/${captionFileName(language, version)}`;

/** A captions name in a media URL: its language and version, or null. */
export function parseCaptionFile(name: string): { language: string; version: string } | null {
  const match = /^captions\/([A-Za-z0-9-]{2,35})\.([0-9a-f]{16})\.vtt$/.exec(name);
  if (!match || !VERSION.test(match[2]!) || canonicalLanguage(match[1]!) !== match[1]) return null;
  return { language: match[1]!, version: match[2]! };
}
