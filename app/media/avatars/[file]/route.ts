import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { avatarDir } from '@/lib/server/accounts/photos';

// GET /media/avatars/{key}-{size}.webp — profile photos; names are server-generated, so they never change.
export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  if (!/^[0-9a-f]{24}-(64|256)\.webp$/.test(file)) return new Response('Not found', { status: 404 });
  try {
    const body = await readFile(path.join(avatarDir(), file));
    return new Response(body, {
      headers: { 'Content-Type': 'image/webp', 'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff' },
    });
  } catch {
    return new Response('Not found', { status: 404 });
  }
}
