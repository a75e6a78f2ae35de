import { serveAvatar } from '@/lib/server/media/serve';

// GET /media/avatars/{key}-{size}.webp — profile photos; names are server-generated, so they never change.
export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  return serveAvatar(file);
}
