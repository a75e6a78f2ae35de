'use client';

// The video page's deferred islands in one chunk (deferred.ts, deferred-player.ts, components/community/deferred.ts):
// the page asks for all of them as it hydrates anyway, so one request and one loader in its first load instead of
// seven. The cards' buttons (deferred-card.ts) keep their own: every list of videos uses them.
export { Comments } from '@/components/community/Comments';
export { FollowButton } from '@/components/community/FollowButton';
export { ReportDialog } from '@/components/community/ReportDialog';
export { PlayerEnhancer } from './PlayerEnhancer';
export { RelativeTime } from './RelativeTime';
export { ShareButton } from './ShareButton';
export { VideoPageManage } from './VideoPageManage';
