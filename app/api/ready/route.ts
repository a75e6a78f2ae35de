import { checkReadiness, probeResponse } from '@/lib/server/health';

export const dynamic = 'force-dynamic';

// GET /api/ready — readiness: 200 when every check passes, else 503 naming the failed one (decision 020).
export async function GET() {
  const readiness = await checkReadiness();
  return probeResponse(readiness, readiness.status === 'ready');
}
