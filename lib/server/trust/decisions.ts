import 'server-only';

import { sql } from 'drizzle-orm';

import type { Database } from '@/lib/db';
import { moderationDecisions, type DecisionAction, type DecisionSource, type DecisionTarget } from '@/lib/db/schema';
import type { DecisionGround } from '@/lib/trust/grounds';

/** How long a decision can be appealed (DSA Art. 20: at least six months). */
export const APPEAL_WINDOW_DAYS = 183;

export interface NewDecision {
  subjectUserId: string | null;
  targetType: DecisionTarget;
  targetId: string;
  targetLabel: string;
  action: DecisionAction;
  ground: DecisionGround;
  explanation: string;
  /** True when no person decided (an automatic hold on an urgent notice). */
  automated: boolean;
  source: DecisionSource;
  decidedBy: string | null;
}

/** Where the member reads the statement of reasons and appeals it. */
export const decisionLink = (id: string) => `/decisions/${id}`;

/**
 * Writes a statement of reasons (DSA Art. 17) in the caller's transaction
 * and returns its id and link; the caller's notification to the member
 * links to it. Every restriction of a member or their content records one.
 */
export async function recordDecision(db: Database, decision: NewDecision): Promise<{ id: string; link: string }> {
  const [row] = await db
    .insert(moderationDecisions)
    .values({ ...decision, appealUntil: sql`now() + make_interval(days => ${APPEAL_WINDOW_DAYS})` })
    .returning({ id: moderationDecisions.id });
  return { id: row!.id, link: decisionLink(row!.id) };
}
