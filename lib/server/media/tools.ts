import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The programs the media pipeline runs (lib/server/media/ffmpeg.ts, probe.ts), found on PATH. */
export const MEDIA_TOOLS = ['ffmpeg', 'ffprobe'] as const;

export type MediaTool = (typeof MEDIA_TOOLS)[number];

/** What to run to get them, for the start-up message. */
export const INSTALL_MEDIA_TOOLS =
  'Install FFmpeg (it brings both): Debian/Ubuntu `apt-get install ffmpeg`, Fedora `dnf install ffmpeg`, Alpine `apk add ffmpeg`, macOS `brew install ffmpeg`; then start again.';

/** The tools that do not answer `-version` (missing from PATH, or broken). */
export async function missingMediaTools(): Promise<MediaTool[]> {
  const results = await Promise.all(
    MEDIA_TOOLS.map(async (tool) => {
      try {
        await run(tool, ['-version'], { timeout: 10_000, env: process.env });
        return null;
      } catch {
        return tool;
      }
    }),
  );
  return results.filter((tool): tool is MediaTool => tool !== null);
}

/** The start-up refusal for `npm start` and `npm run worker`, or null when both tools run. */
export async function mediaToolsProblem(): Promise<string | null> {
  const missing = await missingMediaTools();
  if (missing.length === 0) return null;
  return `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not installed (not found on PATH), and Chrysalis needs both to process videos. ${INSTALL_MEDIA_TOOLS}`;
}
