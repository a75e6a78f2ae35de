import { changeEmail } from '@/lib/server/accounts';
import { requireUser } from '@/lib/server/auth/session';
import { json, readJson, route } from '@/lib/server/http';

// PUT /api/users/settings/email
export const PUT = route(async (request) => json(await changeEmail(await requireUser(request), await readJson(request))));
