import { handler } from '@/lib/server/route-handler';
import { decideTextEdit } from '@/lib/server/videos/text-edits';
import { videoIdParamsSchema } from '@/lib/validation/community';
import { textEditDecisionSchema } from '@/lib/validation/videos';

// PATCH /api/admin/videos/{streamVideoId}/text-edit — { action: 'approve', editId } or { action: 'reject', editId, reason }:
// an owner's waiting title, description and tags go live or are dropped (decision 009); the owner is told.
export const PATCH = handler(
  { auth: 'admin', params: videoIdParamsSchema, body: textEditDecisionSchema },
  ({ actor, params, body }) => decideTextEdit(actor, params.streamVideoId, body),
);
