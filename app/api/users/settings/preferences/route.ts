import { updatePreferences } from '@/lib/server/accounts';
import { requireUser } from '@/lib/server/auth/session';
import { json, readJson, route } from '@/lib/server/http';

// PUT /api/users/settings/preferences
export const PUT = route(async (request) => json(await updatePreferences(await requireUser(request), await readJson(request))));
