import { renderToStaticMarkup } from 'react-dom/server';

import { JsonLd } from '@/components/seo/JsonLd';
import { PlaylistStructuredData, VideoStructuredData } from '@/components/seo/StructuredData';
import { jsonLdText, type JsonLdObject } from '@/lib/seo/json-ld';

process.env.SITE_URL = 'https://chrysalis.example';
process.env.SITE_NAME = 'Chrysalis';

/** Texts that end a script element, or change how the HTML parser looks for its end, if left as they are. */
const CORPUS = [
  '</script >',
  '</script>',
  '</SCRIPT\t>',
  '</script\n>',
  '</script/>',
  '</ScRiPt\f>',
  '<!--',
  '<!-- <script>',
  '<script',
  '-->',
  '\u2028',
  '\u2029',
  '&lt;/script&gt;',
  '</script ><img src=x onerror=window.__xss=1>',
  '"><img src=x onerror=alert(1)>',
  '\\u003c/script>',
  'emoji 🦋 and ünïcödé',
];

const sample = (text: string): JsonLdObject => ({
  '@context': 'https://schema.org',
  '@type': 'VideoObject',
  name: text,
  description: `before ${text} after`,
  keywords: [text, 'plain'],
  author: { '@type': 'Person', name: text },
  interactionStatistic: [{ userInteractionCount: 3 }],
  isFamilyFriendly: false,
  expires: null,
});

describe('jsonLdText', () => {
  it.each(CORPUS)('leaves no markup character in %j and parses back to the same data', (text) => {
    const output = jsonLdText(sample(text));
    expect(output).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(output)).toEqual(sample(text));
  });

  it('uses \\u escapes, which every JSON and JavaScript parser reads as the character', () => {
    expect(jsonLdText({ a: '<>&\u2028\u2029' })).toBe('{"a":"\\u003c\\u003e\\u0026\\u2028\\u2029"}');
  });

  it('leaves out undefined members, as optional schema.org fields are', () => {
    expect(jsonLdText({ a: 1, b: undefined })).toBe('{"a":1}');
  });
});

describe('<JsonLd>', () => {
  it.each(CORPUS)('renders %j inside one data block the HTML parser cannot leave', (text) => {
    const html = renderToStaticMarkup(<JsonLd id="structured-data" data={sample(text)} />);
    const body = /^<script type="application\/ld\+json" id="structured-data">([^<]*)<\/script>$/.exec(html)?.[1];
    expect(body).toBeDefined();
    expect(JSON.parse(body!)).toEqual(sample(text));
  });

  it('carries a video title and description as members wrote them', () => {
    const title = '</script ><img src=x onerror=window.__xss=1>';
    const html = renderToStaticMarkup(
      <VideoStructuredData
        streamVideoId="abc"
        name={title}
        description={`<!--${title}\u2028`}
        thumbnailUrl={null}
        uploadDate="2026-01-01T00:00:00.000Z"
        contentUrl="/media/videos/abc/web.mp4"
        views={2}
        likes={1}
        uploader="creator"
      />,
    );
    expect(html.match(/</g)).toHaveLength(2); // the element's own opening and closing tags
    const data = JSON.parse(/>([^<]*)</.exec(html)![1]!);
    expect(data).toMatchObject({
      '@type': 'VideoObject',
      name: title,
      description: `<!--${title}\u2028`,
      embedUrl: 'https://chrysalis.example/embed/abc',
    });
    expect(data.contentUrl).toBe('https://chrysalis.example/media/videos/abc/web.mp4');
  });

  it('names the uploader without linking a profile, which only members may open', () => {
    const video = renderToStaticMarkup(
      <VideoStructuredData
        streamVideoId="abc"
        name="A video"
        description=""
        thumbnailUrl={null}
        uploadDate="2026-01-01T00:00:00.000Z"
        contentUrl={null}
        views={0}
        likes={0}
        uploader="creator"
      />,
    );
    const playlist = renderToStaticMarkup(
      <PlaylistStructuredData path="/playlist/abcdefghijkl" name="Mine" description="" author="creator" videos={[]} />,
    );
    for (const html of [video, playlist]) {
      expect(html).not.toContain('/profile/');
      expect(JSON.parse(/>([^<]*)</.exec(html)![1]!).author).toEqual({ '@type': 'Person', name: 'creator' });
    }
  });
});
