import { checkHealth } from '@/lib/server/health';

export const dynamic = 'force-dynamic';

// GET /api/health — for load balancers and uptime checks.
export async function GET() {
  const health = await checkHealth();
  return Response.json(health, {
    status: health.status === 'ok' ? 200 : 503,
    headers: { 'Cache-Control': 'no-store' },
  });
}
