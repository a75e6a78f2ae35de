import { requireUser } from '@/lib/server/auth/session';
import { updateProfile } from '@/lib/server/community/profiles';
import { json, readJson, route } from '@/lib/server/http';

// PUT /api/users/settings/profile { bio } — the caller's bio (plain text, ≤ 500 characters): { success: true, bio }.
export const PUT = route(async (request) => json(await updateProfile(await requireUser(request), await readJson(request))));
