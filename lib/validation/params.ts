/**
 * Path segments that the services check themselves, each with its own
 * answer (a video id that cannot be one is a 400 for likes and comments but
 * a 404 for the video itself; an impossible username is a 404). The routes
 * pass them on exactly as they arrived: deliberately not the cleaning
 * `text()` schema, since an id with a control character in it must fail its
 * pattern, not be cleaned into somebody else's id.
 */
import { z } from '@/lib/validation/zod';

const segment = z.string();

/** `{username}` of /api/users/{username}/…: checked against the username pattern by the services (404). */
export const usernameParamsSchema = z.object({ username: segment });

/** `{streamVideoId}` of /api/videos/{streamVideoId}/…: checked by the services (400 or 404, as each route answers). */
export const streamVideoIdParamsSchema = z.object({ streamVideoId: segment });

/** `{id}` of /api/comments/{id}: the comment service answers a malformed id with its own 400. */
export const commentIdParamsSchema = z.object({ id: segment });

/** `{streamVideoId}/captions/{language}`: the captions service checks both (a language that is not a BCP 47 tag is a 400). */
export const captionParamsSchema = z.object({ streamVideoId: segment, language: segment });
