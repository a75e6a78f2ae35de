import { requireUser } from '@/lib/server/auth/session';
import { json, route } from '@/lib/server/http';
import { uploadVideo } from '@/lib/server/videos/upload';

// POST /api/videos/upload — multipart: video (file), title, description, category, tags. Streams to disk; never buffered.
export const POST = route(async (request) => json(await uploadVideo(await requireUser(request), request), { status: 201 }));
