/** The contracts of watch progress and history (lib/server/videos/history.ts). */
import { MAX_POSITION_SECONDS } from '@/lib/watch-progress';
import { z } from '@/lib/validation/zod';

import { videoListQuerySchema } from './videos';

/** A member keeps at most this many videos in their history: the most recently watched (older ones are trimmed). */
export const WATCH_HISTORY_MAX = 1000;

export const POSITION_MESSAGE = 'positionSeconds must be a number of seconds, from 0 up.';

/** PUT /api/videos/{streamVideoId}/progress: where playback is, in seconds (fractions allowed). */
export const progressSchema = z.object({
  positionSeconds: z
    .number({ error: POSITION_MESSAGE })
    .min(0, POSITION_MESSAGE)
    .max(MAX_POSITION_SECONDS, `positionSeconds must be at most ${MAX_POSITION_SECONDS} (24 hours).`),
});

/** GET /api/users/me/history: `limit`, `page` or `cursor` as Watch later; `unfinished=true` for home's Continue watching row. */
export const historyQuerySchema = videoListQuerySchema.pick({ limit: true, page: true, cursor: true }).extend({
  unfinished: z.enum(['true', 'false'], { error: 'unfinished must be true or false' }).optional(),
});

/** PUT /api/users/me/history/paused. */
export const historyPausedSchema = z.object({
  paused: z.boolean({ error: 'paused must be true or false' }),
});
