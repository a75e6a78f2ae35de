import { EMBED_PLAYER_SCRIPT } from '@/lib/app-scripts/generated';
import { getConfig } from '@/lib/config/server';
import { escapeHtml } from '@/lib/html';
import { loadVideoPage } from '@/lib/server/videos/video-page';
import { absoluteUrl } from '@/lib/seo/metadata';

type Context = { params: Promise<{ streamVideoId: string }> };

const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  // The player's one script (lib/app-scripts/source/embed-player.ts), and nothing else inline.
  `script-src ${EMBED_PLAYER_SCRIPT.hash}`,
  "style-src 'unsafe-inline'",
  "img-src 'self'",
  "media-src 'self'",
  // The view count (POST /api/videos/{id}/view) when playback starts.
  "connect-src 'self'",
  "form-action 'none'",
  "base-uri 'none'",
  // The one page other sites may frame.
  'frame-ancestors *',
].join('; ');

/**
 * GET /embed/{streamVideoId} — a minimal player page for other sites' iframes:
 * the poster, an 18+ confirmation that starts playback, the web MP4 (plays in
 * every browser, seeks by range requests) and a link back to the video page.
 * Plain HTML from a route handler, so none of the site's shell or scripts
 * load inside someone else's page. It is the only page that may be framed.
 */
export async function GET(_request: Request, { params }: Context): Promise<Response> {
  const data = await loadVideoPage((await params).streamVideoId);
  const { siteName } = getConfig();
  const headers = {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': data ? 'public, max-age=60' : 'no-store',
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  };
  if (!data || !data.playback.mp4Url) {
    return new Response(page(siteName, 'Video unavailable', '<p class="gone">This video is not available.</p>'), {
      status: 404,
      headers,
    });
  }
  const { video, playback } = data;
  const title = escapeHtml(video.title);
  const watchUrl = escapeHtml(absoluteUrl(`/video/${video.streamVideoId}`));
  const poster = video.thumbnailUrl ? ` poster="${escapeHtml(video.thumbnailUrl)}"` : '';
  // The browser's own controls offer the captions (decision 051).
  const tracks = data.captions
    .map(
      (track) =>
        `<track kind="subtitles" srclang="${escapeHtml(track.language)}" label="${escapeHtml(track.label)}" src="${escapeHtml(track.url)}">`,
    )
    .join('');
  const body = `
<a class="title" href="${watchUrl}" target="_blank" rel="noopener">${title} · ${escapeHtml(siteName)}</a>
<video id="player" controls playsinline preload="none"${poster} src="${escapeHtml(playback.mp4Url!)}" data-view-url="${escapeHtml(`/api/videos/${video.streamVideoId}/view`)}" aria-label="Video: ${title}">${tracks}</video>
<div id="gate" class="gate" role="dialog" aria-modal="true" aria-labelledby="gate-title">
  <p id="gate-title">Adults only (18+)</p>
  <button id="confirm" type="button">I am 18 or older — play</button>
  <a href="${watchUrl}" target="_blank" rel="noopener">Watch on ${escapeHtml(siteName)}</a>
</div>
<script>${EMBED_PLAYER_SCRIPT.text}</script>`;
  return new Response(page(siteName, `${title} · ${escapeHtml(siteName)}`, body), { status: 200, headers });
}

function page(siteName: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="rating" content="adult">
<title>${title}</title>
<style>
  html, body { margin: 0; height: 100%; background: #000; color: #fff; font-family: system-ui, sans-serif; }
  body { position: relative; overflow: hidden; }
  video { width: 100%; height: 100%; display: block; background: #000; }
  .title { position: absolute; top: 0; left: 0; right: 0; padding: 10px 14px; color: #fff; font-weight: 700; text-decoration: none;
    background: linear-gradient(rgba(0,0,0,.75), transparent); z-index: 1; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
  .gate { position: absolute; inset: 0; display: grid; place-content: center; justify-items: center; gap: 12px; text-align: center;
    background: rgba(13,12,18,.82); z-index: 2; padding: 16px; }
  .gate p { margin: 0; font-size: 1.2rem; font-weight: 800; }
  .gate button { font: inherit; font-weight: 700; padding: 12px 20px; border: 0; border-radius: 999px; cursor: pointer; color: #fff;
    background: linear-gradient(135deg, #ff4fa3, #8b5cf6); }
  .gate button:focus-visible, .gate a:focus-visible, .title:focus-visible { outline: 3px solid #ffd166; outline-offset: 2px; }
  .gate a { color: #ff8cc3; }
  .gone { display: grid; place-items: center; height: 100%; margin: 0; color: #b7b1c6; }
</style>
</head>
<body>${body}
<noscript><p class="gone">${escapeHtml(siteName)}: enable JavaScript to confirm your age and play.</p></noscript>
</body>
</html>`;
}
