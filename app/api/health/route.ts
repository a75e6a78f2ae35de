import { checkHealth, probeResponse } from '@/lib/server/health';

export const dynamic = 'force-dynamic';

// GET /api/health — liveness for load balancers and uptime checks: the process and the database answer.
export async function GET() {
  const health = await checkHealth();
  return probeResponse(health, health.status === 'ok');
}
