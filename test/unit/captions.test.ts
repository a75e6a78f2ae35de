import fc from 'fast-check';
import { parseText } from 'media-captions';

import { canonicalLanguage, captionUrl, languageLabel, parseCaptionFile as parseCaptionName } from '@/lib/media/captions';
import { CAPTION_MESSAGES, CaptionFileError, captionsToVtt, vttTimestamp } from '@/lib/server/videos/caption-files';

/*
 * Captions files made into the WebVTT we serve (decision 051): whatever a cue's text holds, what comes out is
 * timing and plain text, with <b>, <i> and <u> the only tags, and no control character anywhere.
 */

const bytes = (text: string) => new TextEncoder().encode(text);
const vttOf = async (text: string) => (await captionsToVtt(bytes(text))).vtt;
const HOSTILE = [
  '</script >',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '\u0000NUL',
  '&lt;b&gt;',
  '-->',
  '😀'.repeat(100),
  '<c.red>x</c>',
  '\u2028line',
];

describe('a captions file made into our WebVTT', () => {
  it('keeps times and text, and only the bold, italic and underline tags', async () => {
    const vtt = await vttOf(
      'WEBVTT - title\n\nSTYLE\n::cue { color: red }\n\nNOTE a note\n\n1\n00:00:01.000 --> 00:00:02.000 line:0 align:start\n<i>In</i> <b>bold</b> <u>u</u> <ruby>漢<rt>kan</rt></ruby>\n',
    );
    expect(vtt).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<i>In</i> <b>bold</b> <u>u</u> 漢kan\n');
  });

  it('reads SubRip with CRLF, a BOM, dots or commas, and sorts cues by time', async () => {
    const srt = '\uFEFF2\r\n00:00:05,000 --> 00:00:06,000\r\nlater\r\n\r\n1\r\n00:00:01.5 --> 00:00:02,250\r\nfirst\r\n';
    const parsed = await captionsToVtt(bytes(srt));
    expect(parsed.cueCount).toBe(2);
    expect(parsed.vtt.indexOf('first')).toBeLessThan(parsed.vtt.indexOf('later'));
    expect(parsed.version).toMatch(/^[0-9a-f]{16}$/);
  });

  it.each(HOSTILE)('renders %j inert', async (payload) => {
    const vtt = await vttOf(`WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nbefore ${payload} after\n`);
    const body = vtt.split('\n').slice(3).join('\n');
    expect(body).not.toMatch(/<(?!\/?[biu]>)/);
    expect(body).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029]/);
    expect(body).not.toContain('-->');
    expect(body).toContain('before');
    expect(body).toContain('after');
  });

  it('for any cue text, writes a file that parses back to the same cues with no markup', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(fc.nat(36_000_000), fc.integer({ min: 1, max: 60_000 }), fc.string({ unit: 'binary', maxLength: 120 })),
          {
            minLength: 1,
            maxLength: 12,
          },
        ),
        async (cues) => {
          const source = `WEBVTT\n\n${cues
            .map(
              ([start, length, text]) =>
                `${vttTimestamp(start / 1000)} --> ${vttTimestamp((start + length) / 1000)}\n${text.replace(/\n+/g, ' ')}x\n`,
            )
            .join('\n')}`;
          let vtt: string;
          try {
            vtt = await vttOf(source);
          } catch (error) {
            // A text of 500 characters or more is refused with its own message, nothing else is.
            expect(error).toBeInstanceOf(CaptionFileError);
            expect((error as Error).message).toMatch(/longer than 500 characters/);
            return;
          }
          expect(vtt).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/);
          const again = await parseText(vtt, { type: 'vtt', strict: true });
          expect(again.errors).toEqual([]);
          expect(again.cues.length).toBeLessThanOrEqual(cues.length);
          for (const cue of again.cues) expect(cue.text).not.toMatch(/<(?!\/?[biu]>)/);
          // Written out again, our file is a fixed point: the same bytes, the same version.
          expect(await vttOf(vtt)).toBe(vtt);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('refuses files it cannot read, each with what to fix', async () => {
    const refuse = (input: Uint8Array) =>
      captionsToVtt(input).then(
        () => null,
        (error: Error) => error.message,
      );
    expect(await refuse(bytes('[Script Info]\nTitle: an ASS file'))).toBe(CAPTION_MESSAGES.unknownFormat);
    expect(await refuse(bytes('WEBVTT\n\nNOTE only a note\n'))).toBe(CAPTION_MESSAGES.noCues);
    expect(await refuse(new Uint8Array([0x57, 0x45, 0xc3, 0x28]))).toBe(CAPTION_MESSAGES.notUtf8);
    expect(await refuse(bytes(`WEBVTT\n\n${'00:00:01.000 --> 00:00:02.000\nx\n\n'.repeat(10_001)}`))).toBe(
      CAPTION_MESSAGES.tooManyCues,
    );
    expect(await refuse(new Uint8Array(512 * 1024 + 1))).toBe(CAPTION_MESSAGES.tooLarge);
  });

  it('writes times as WebVTT does', () => {
    expect(vttTimestamp(0)).toBe('00:00:00.000');
    expect(vttTimestamp(3725.5)).toBe('01:02:05.500');
    expect(vttTimestamp(59.9996)).toBe('00:01:00.000');
  });
});

describe('caption languages and names', () => {
  it('takes BCP 47 tags in their canonical form, and nothing else', () => {
    expect(canonicalLanguage('PT-br')).toBe('pt-BR');
    expect(canonicalLanguage(' zh-hant ')).toBe('zh-Hant');
    for (const bad of ['', 'x', 'und', 'en_US', '../en', 'en\u0000', '<script>', 'a'.repeat(40), 'en-'])
      expect(canonicalLanguage(bad)).toBeNull();
  });

  it('names a language in itself', () => {
    expect(languageLabel('es')).toBe('Español');
    expect(languageLabel('de')).toBe('Deutsch');
    expect(languageLabel('ja')).toBe('日本語');
  });

  it('parses only the names it builds', () => {
    const url = captionUrl('abc', 'pt-BR', '0123456789abcdef');
    expect(url).toBe('/media/videos/abc/captions/pt-BR.0123456789abcdef.vtt');
    expect(parseCaptionName('captions/pt-BR.0123456789abcdef.vtt')).toEqual({ language: 'pt-BR', version: '0123456789abcdef' });
    for (const name of [
      'captions/pt-br.0123456789abcdef.vtt',
      'captions/en.0123.vtt',
      'captions/../en.0123456789abcdef.vtt',
      'captions/en.0123456789abcdef.srt',
    ])
      expect(parseCaptionName(name)).toBeNull();
  });
});
