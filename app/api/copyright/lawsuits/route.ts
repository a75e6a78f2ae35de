import { handler } from '@/lib/server/route-handler';
import { reportLawsuit } from '@/lib/server/trust/copyright';
import { lawsuitSchema } from '@/lib/validation/notices';

// POST /api/copyright/lawsuits — { token, details }: the claimant's link from the counter-notice email; the video is not restored: { message }.
export const POST = handler({ body: lawsuitSchema }, ({ body }) => reportLawsuit(body));
