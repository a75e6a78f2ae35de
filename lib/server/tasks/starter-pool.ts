import 'server-only';

import { sql } from 'drizzle-orm';

import { queryRows, type Database } from '@/lib/db';
import { dailyTasks } from '@/lib/db/schema';

/**
 * Twenty starter tasks for the pool, so a fresh site has a daily task from
 * its first day. Gentle and safe to do anywhere: transformation, self-care,
 * reflection and confidence; nothing explicit, nothing risky. Admins edit or
 * delete them like any other task.
 */
export const STARTER_TASKS: readonly string[] = [
  'Write down three things you like about the person you are becoming.',
  'Choose one item of clothing that makes you feel most like yourself and wear it for part of the day, even if only at home.',
  'Spend ten minutes on a skincare or self-care ritual, slowly and with full attention.',
  'Stand tall in front of a mirror for one minute and say one kind, true sentence to your reflection.',
  'Drink a full glass of water now, and two more before the evening.',
  'Take a fifteen-minute walk without your phone and notice how your body moves.',
  'Write a short letter to your younger self about something you understand better now.',
  'Practise your chosen voice, name or pronouns out loud for five minutes in a private space.',
  'Tidy one small corner of your space so it feels more like you.',
  'Make a playlist of five songs that make you feel confident, and listen to it once through.',
  'Write one boundary you want to keep this week, and one way you will keep it.',
  'Do five minutes of slow stretching, breathing out longer than you breathe in.',
  'Send a kind message to someone in your community who has supported you.',
  'Journal for ten minutes: what does transformation mean to you today?',
  'Try a small change in how you present yourself (nails, hair, an accessory) and notice how it feels.',
  'Write down one fear about changing, then one reason it is worth it anyway.',
  'Go to bed thirty minutes earlier tonight and keep your screen out of reach.',
  'List five things your body did for you today and thank it for each.',
  'Learn something about LGBTQ+ history today and write one sentence about why it matters to you.',
  'Set one small, achievable goal for tomorrow and write it where you will see it in the morning.',
];

/**
 * Fills the empty pool with the starter tasks, once per site: only when the
 * daily task has never been used (no task, no completion, no admin task
 * action in the audit log), so a pool an admin emptied on purpose stays
 * empty. An advisory lock keeps several processes starting together from
 * seeding twice. Returns how many tasks were added.
 */
export async function seedStarterTasksIfUnused(db: Database): Promise<number> {
  return db.transaction(async (database) => {
    await database.execute(sql`SELECT pg_advisory_xact_lock(hashtext('chrysalis:starter-tasks'))`);
    const [usage] = await queryRows<{ used: boolean }>(
      database,
      sql`SELECT EXISTS (SELECT 1 FROM daily_tasks)
              OR EXISTS (SELECT 1 FROM task_completions)
              OR EXISTS (SELECT 1 FROM admin_audit_log WHERE action LIKE 'task.%') AS used`,
    );
    if (usage?.used) return 0;
    await database.insert(dailyTasks).values(STARTER_TASKS.map((description) => ({ description })));
    return STARTER_TASKS.length;
  });
}
