/** Admin inputs, shared by the admin panel's forms, the admin API and tests. */
import { z } from 'zod';

export const ADMIN_NOTE_MAX = 500;

export const memberIdParamsSchema = z.object({
  id: z.uuid({ error: 'That is not a valid member id.' }),
});

const note = z.string({ error: 'note must be text' }).trim().max(ADMIN_NOTE_MAX, `The note must be at most ${ADMIN_NOTE_MAX} characters.`).optional();

export const vipGrantSchema = z.object({
  days: z.coerce
    .number({ error: 'Days must be a whole number from 1 to 3650.' })
    .int('Days must be a whole number from 1 to 3650.')
    .min(1, 'Days must be a whole number from 1 to 3650.')
    .max(3650, 'Days must be a whole number from 1 to 3650.'),
  note,
});
export type VipGrantInput = z.infer<typeof vipGrantSchema>;

export const vipRevokeSchema = z.object({ note });
