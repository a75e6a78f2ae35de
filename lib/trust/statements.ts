/**
 * What a statement of reasons and its appeal look like to the member and to
 * admins (the API's answers and the pages'), with the plain words for each
 * kind of decision. No imports beyond types: the browser bundle reads it.
 */
import type { DecisionGround, GroundInfo } from './grounds';

export const DECISION_ACTION_LABELS: Record<string, string> = {
  video_rejected: 'Your video was not approved',
  video_removed: 'Your video was removed',
  video_hidden: 'Your video was hidden while we review it',
  video_taken_down: 'Your video was taken down after a copyright notice',
  video_restored: 'Your video was restored',
  comment_removed: 'Your comment was removed',
  account_banned: 'Your account was banned',
  account_terminated: 'Your account was closed',
  verification_rejected: 'Your identity verification was not accepted',
};

export const DECISION_SOURCE_LABELS: Record<string, string> = {
  moderation: 'Our moderators’ own review',
  report: 'A report from a member or visitor',
  notice: 'A notice from someone outside the site',
  copyright: 'A copyright notice',
  consent: 'A performer withdrawing their consent',
  appeal: 'An appeal',
};

export const APPEAL_STATUS_LABELS = {
  open: 'Waiting for review',
  upheld: 'Upheld: the decision stands',
  reversed: 'Reversed: the decision was wrong',
} as const;

export interface AppealDto {
  _id: string;
  status: 'open' | 'upheld' | 'reversed';
  statement: string;
  createdAt: string;
  decidedAt: string | null;
  outcomeNote: string | null;
}

export interface DecisionDto {
  _id: string;
  action: string;
  actionLabel: string;
  targetType: string;
  targetId: string;
  targetLabel: string;
  ground: DecisionGround | string;
  groundInfo: GroundInfo | null;
  explanation: string;
  automated: boolean;
  source: string;
  sourceLabel: string;
  createdAt: string;
  appealUntil: string;
  /** Null when an appeal can be sent now; otherwise the sentence saying why not. */
  appealRefusal: string | null;
  appeal: AppealDto | null;
}

export interface AdminAppealDto extends AppealDto {
  decision: DecisionDto;
  appellant: { _id: string; username: string } | null;
  /** Who made the original decision (null: the system). */
  decidedByOriginal: { _id: string; username: string } | null;
  /** Whether the admin looking may decide it (not the one who made the decision). */
  mayDecide: boolean;
}
