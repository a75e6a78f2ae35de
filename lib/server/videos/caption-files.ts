import { createHash } from 'node:crypto';

import { parseText, tokenizeVTTCue, type VTTNode } from 'media-captions';

import { CAPTION_CUE_TEXT_MAX, CAPTION_CUES_MAX, CAPTION_FILE_MAX_BYTES } from '@/lib/media/captions';
import { characterCount, cleanText } from '@/lib/validation/common';

/**
 * An owner's captions file made into the WebVTT we serve (decision 051). The file is parsed (media-captions, the
 * parser Vidstack's player uses, for WebVTT and SubRip alike) and written out again from its cues' times and text
 * alone: cue settings, regions, styles, notes and every tag but <b>, <i> and <u> are dropped, the text is cleaned as
 * any text is (no NUL or control characters) and escaped, so `</script >` in a cue is shown as those characters and
 * nothing in the file can run or restyle the page. Every refusal names what to fix.
 */

export const CAPTION_MESSAGES = {
  tooLarge: `The captions file is larger than ${CAPTION_FILE_MAX_BYTES / 1024} KB. Split it, or remove what is not captions.`,
  notUtf8: 'The captions file is not UTF-8 text. Save it as UTF-8 in your subtitle editor and upload it again.',
  unknownFormat: 'This is not a WebVTT (.vtt) or SubRip (.srt) file. Export your captions in one of these formats.',
  noCues: 'No captions were found in this file: each needs a start and end time (00:00:01.000 --> 00:00:03.000) and its text.',
  tooManyCues: `The file has more than ${CAPTION_CUES_MAX.toLocaleString('en-US')} captions. Split it, or merge short ones.`,
  cueTooLong: (at: string) =>
    `The caption at ${at} is longer than ${CAPTION_CUE_TEXT_MAX} characters. Split it into shorter ones.`,
} as const;

export class CaptionFileError extends Error {}

export interface ParsedCaptions {
  vtt: string;
  cueCount: number;
  /** The first 16 hex digits of the SHA-256 of `vtt`: its URL's version. */
  version: string;
}

/** Tags a viewer's captions keep (WebVTT's own, which browsers render as styling only). */
const KEPT_TAGS = new Set(['b', 'i', 'u']);

/** The WebVTT escapes: what is left after them is text to a WebVTT parser, never a tag. */
const escapeCueText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function cueText(nodes: VTTNode[]): string {
  return nodes
    .map((node) => {
      if (node.type === 'text') return escapeCueText(node.data);
      const inner = cueText(node.children);
      return KEPT_TAGS.has(node.type) && inner.trim() ? `<${node.type}>${inner}</${node.type}>` : inner;
    })
    .join('');
}

/** 3725.5 → 01:02:05.500, as WebVTT writes times. */
export function vttTimestamp(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/** 125.5 → 2:05, for messages. */
const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

function formatOf(text: string): 'vtt' | 'srt' | null {
  if (/^WEBVTT(?:[ \t\n]|$)/.test(text)) return 'vtt';
  // SubRip: a counter line, then a timing line with commas (or dots, as some tools write it).
  if (/^\s*\d+[ \t]*\n[ \t]*\d{1,3}:\d{2}:\d{2}[,.]\d{1,3}[ \t]*-->/.test(text)) return 'srt';
  return null;
}

/** Parses a captions file (its bytes as uploaded) into the WebVTT we serve, or throws a CaptionFileError. */
export async function captionsToVtt(bytes: Uint8Array): Promise<ParsedCaptions> {
  if (bytes.byteLength > CAPTION_FILE_MAX_BYTES) throw new CaptionFileError(CAPTION_MESSAGES.tooLarge);
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new CaptionFileError(CAPTION_MESSAGES.notUtf8);
  }
  // Line breaks as \n and no control characters before parsing: a NUL is not text, whatever the format says.
  const text = cleanText(decoded, { multiline: true });
  const type = formatOf(text);
  if (!type) throw new CaptionFileError(CAPTION_MESSAGES.unknownFormat);
  const { cues } = await parseText(text, { type, strict: false });

  const kept: { start: number; end: number; text: string }[] = [];
  for (const cue of cues) {
    const { startTime: start, endTime: end } = cue;
    if (!Number.isFinite(start) || !Number.isFinite(end) || start < 0 || end <= start) continue;
    // One line per line of text; a blank line would end the cue in WebVTT, so there is none.
    const lines = cueText(tokenizeVTTCue(cue))
      .split('\n')
      .map((line) => line.replace(/[ \t]+/g, ' ').trim())
      .filter(Boolean);
    if (lines.length === 0) continue;
    const body = lines.join('\n');
    if (characterCount(body) > CAPTION_CUE_TEXT_MAX) throw new CaptionFileError(CAPTION_MESSAGES.cueTooLong(clock(start)));
    kept.push({ start, end, text: body });
    if (kept.length > CAPTION_CUES_MAX) throw new CaptionFileError(CAPTION_MESSAGES.tooManyCues);
  }
  if (kept.length === 0) throw new CaptionFileError(CAPTION_MESSAGES.noCues);
  kept.sort((a, b) => a.start - b.start || a.end - b.end);
  const vtt = `WEBVTT\n\n${kept.map((cue) => `${vttTimestamp(cue.start)} --> ${vttTimestamp(cue.end)}\n${cue.text}\n`).join('\n')}`;
  return { vtt, cueCount: kept.length, version: createHash('sha256').update(vtt).digest('hex').slice(0, 16) };
}
