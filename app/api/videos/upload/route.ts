import { handler } from '@/lib/server/route-handler';
import { uploadVideo } from '@/lib/server/videos/upload';

// POST /api/videos/upload — multipart: video (file), title, description, category, tags. Streams to disk; never buffered.
export const POST = handler({ auth: 'member', status: 201 }, ({ actor, request }) => uploadVideo(actor, request));
