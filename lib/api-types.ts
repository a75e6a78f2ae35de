/** Shapes the JSON API returns, shared by the server that builds them and the client that reads them. */

/** The user as the API shows it to its owner (spec section 3 plus what the client needs). */
export interface UserDto {
  _id: string;
  username: string;
  email: string;
  isAdmin: boolean;
  isVIP: boolean;
  autoPlayVideos: boolean;
  tasks: number;
  lastTaskCompleted: string | null;
  profilePhotoUrl: string | null;
  emailVerified: boolean;
  createdAt: string;
}

/** A video as lists and the video page show it (spec section 3: _id, streamVideoId, title, thumbnailUrl, views, likedBy). */
export interface VideoDto {
  _id: string;
  streamVideoId: string;
  title: string;
  description: string;
  category: 'Sissy' | 'Beta' | 'Censor';
  tags: string[];
  thumbnailUrl: string | null;
  /** Names the WebP widths of the thumbnail (lib/media/thumbnails.ts); null when only the JPEG exists. */
  thumbnailVersion: string | null;
  /** Names the seek bar's storyboard and the card's preview clip (lib/media/previews.ts); null until they are made. */
  previewsVersion: string | null;
  views: number;
  /** Member ids; its length is the like count. */
  likedBy: string[];
  durationSeconds: number | null;
  width: number | null;
  height: number | null;
  /** When it became public (or was uploaded, for the owner's unpublished videos). */
  createdAt: string;
  uploader: { _id: string; username: string };
}

/** What the uploader and admins also see: where the video is in processing and review. */
export interface OwnVideoDto extends VideoDto {
  status: 'queued' | 'processing' | 'ready' | 'failed';
  moderationStatus: 'pending' | 'approved' | 'rejected';
  processingError: string | null;
  rejectionReason: string | null;
  /** Where the MP4 and HLS can be played from (the owner's and admins' preview). */
  playback: VideoPlayback | null;
  /** Whether its uploader has declared who appears in it (performer records); approval waits for them. */
  performerRecordsComplete: boolean;
  /** The owner's new title, description and tags waiting for a moderator, while the approved text stays public (decision 009). */
  pendingEdit: PendingTextEditDto | null;
}

/** One language of a video's captions, as the player lists it (decision 051). */
export interface CaptionTrackDto {
  /** A BCP 47 tag: en, pt-BR. */
  language: string;
  /** The language's name in itself: "Español". */
  label: string;
  /** The WebVTT file, under a versioned name. */
  url: string;
}

/** A caption track as its owner and admins manage it. */
export interface ManagedCaptionDto extends CaptionTrackDto {
  cueCount: number;
  updatedAt: string;
}

export interface PendingTextEditDto {
  /** New with every proposal; a moderator's decision names it. */
  editId: string;
  title: string;
  description: string;
  tags: string[];
  proposedAt: string;
}

/** GET /api/admin/video-text-edits: an owner's waiting text for an approved video, beside what is live. */
export interface TextEditDto {
  streamVideoId: string;
  /** Named by the decision (PATCH /api/admin/videos/{streamVideoId}/text-edit). */
  editId: string;
  proposedAt: string;
  /** The approved (live) title. */
  title: string;
  uploader: { _id: string; username: string };
  thumbnailUrl: string | null;
  /** Each field that would change: the live value, then the owner's. */
  changes: { field: 'title' | 'description' | 'tags'; before: string | string[]; after: string | string[] }[];
}

/** A video in the moderation queue: what the uploader sees, and for admins the processing job's own error. */
export interface ModerationVideoDto extends OwnVideoDto {
  /** The last error of its processing job (ffmpeg's words, paths included); uploaders never get this. */
  processingDetail: string | null;
  /** The uploader's identity verification, shown beside the video so admins know before approving. */
  uploaderVerification: VerificationState;
  /** Who appears in it, with links to their documents, beside the video for the moderator. */
  performerRecords: PerformerRecordsDto | null;
  /** Open withdrawals of consent on it (each blocks approval until an admin resolves it). */
  consentWithdrawals: ConsentWithdrawalDto[];
  /** Why it cannot be approved now (the approval gate's sentences); empty when it can. */
  approvalBlockers: string[];
  /** Its captions, each a link to the file the player serves, for the moderator to read. */
  captions: CaptionTrackDto[];
}

/** GET/PUT /api/videos/{streamVideoId}/performers: everyone who appears in a video (decision 015). */
export interface PerformerRecordsDto {
  streamVideoId: string;
  /** Declared and saved; approval is refused until then. */
  complete: boolean;
  /** YYYY-MM-DD. */
  recordedOn: string | null;
  declaredAt: string | null;
  uploaderAppears: boolean;
  coPerformers: {
    legalName: string;
    stageName: string;
    /** YYYY-MM-DD. */
    dateOfBirth: string;
    ageAtRecording: number | null;
    consent: 'release_form' | 'signed_pdf';
    /** The in-app release: the typed signature, the date and the statements ticked (ids of RELEASE_STATEMENTS). */
    release: { signature: string; signedOn: string; statements: string[] } | null;
    /** /api/admin/documents/{id}, for admins only; null for the uploader. */
    idDocumentUrl: string | null;
    releaseDocumentUrl: string | null;
  }[];
}

/** A performer's withdrawal of consent, as admins see it in moderation. */
export interface ConsentWithdrawalDto {
  _id: string;
  streamVideoId: string;
  legalName: string;
  dateOfBirth: string;
  email: string;
  statement: string;
  status: 'open' | 'confirmed' | 'dismissed';
  createdAt: string;
}

export interface VideoPlayback {
  mp4Url: string | null;
  hlsUrl: string | null;
}

export interface VideoListDto {
  videos: VideoDto[];
  pagination: { page: number; limit: number; hasMore: boolean; nextCursor: string | null };
}

/** Where a member stopped in a video (decision 053). */
export interface WatchProgressDto {
  positionSeconds: number;
  /** Watched to the end (or its last moments): the player starts over. */
  finished: boolean;
  /** When it was last saved. */
  watchedAt: string;
}

/** A video in the member's history, with where they stopped. */
export interface HistoryVideoDto extends VideoDto {
  progress: WatchProgressDto;
}

/** GET /api/users/me/history: most recently watched first, and whether history is paused. */
export interface HistoryListDto {
  videos: HistoryVideoDto[];
  pagination: VideoListDto['pagination'];
  paused: boolean;
}

/** PUT /api/videos/{streamVideoId}/progress: whether it was kept (not while history is paused). */
export interface ProgressSavedDto {
  saved: boolean;
  paused: boolean;
}

/** GET /api/videos/{streamVideoId}/progress: the member's saved position, null when there is none (or history is paused). */
export interface ProgressDto {
  progress: WatchProgressDto | null;
  paused: boolean;
}

/** PUT /api/users/me/history/paused. */
export interface HistoryPausedDto {
  paused: boolean;
}

/** DELETE /api/users/me/history[/{streamVideoId}]: how many videos left the history. */
export interface HistoryRemovedDto {
  removed: number;
}

/** PUT/DELETE /api/videos/{streamVideoId}/watch-later. */
export interface WatchLaterStateDto {
  saved: boolean;
}

// ---------- Reports and blocks ----------

/** What a report points at, summarised for the moderators' queue; null when the target has since been deleted. */
export type ReportTargetSummary =
  | { type: 'video'; _id: string; streamVideoId: string; title: string; uploader: { username: string }; link: string }
  | {
      type: 'comment';
      _id: string;
      excerpt: string;
      author: { username: string };
      video: { streamVideoId: string; title: string };
      link: string;
    }
  | { type: 'profile'; _id: string; username: string; link: string };

/** A report as GET /api/admin/reports lists it. */
export interface AdminReportDto {
  _id: string;
  targetType: 'video' | 'comment' | 'profile';
  targetId: string;
  target: ReportTargetSummary | null;
  reason: 'underage' | 'non_consensual' | 'illegal' | 'copyright' | 'harassment' | 'spam' | 'other';
  /** The reason in the words the reporter chose it by. */
  reasonLabel: string;
  details: string;
  status: 'open' | 'resolved' | 'dismissed';
  /** Possible harm to a person or a crime (underage, non-consensual, illegal): listed first among open reports. */
  urgent: boolean;
  /** Null for a visitor's report. */
  reporter: { _id: string; username: string } | null;
  createdAt: string;
  /** "3 hours ago", in the spec's relative-time units, at the moment of the answer. */
  age: string;
  ageHours: number;
  /** 48 hours after createdAt for non-consent and minors, else seven business days (Monday to Friday, UTC). */
  dueAt: string;
  /** Still open after dueAt. */
  overdue: boolean;
  /** For open reports: "5 hours left" or "overdue by 2 days 3 hours"; null once decided. */
  clock: string | null;
  /** 'report' from the in-app dialog, 'notice' from the public or DMCA form. */
  source: 'report' | 'notice';
  /** A notice's sender, for admins only (null for in-app reports). */
  notifier: { name: string; email: string; signature: string } | null;
  /** This report hid the video at once. */
  heldVideo: boolean;
  /** The copyright takedown this notice caused, if any. */
  takedown: {
    _id: string;
    status: 'active' | 'counter_noticed' | 'lawsuit' | 'restored' | 'withdrawn' | 'upheld';
    restoreAt: string | null;
    claimant: { address: string; phone: string };
    work: string;
  } | null;
  /** How many reports with this status point at the same target (this one included). */
  reportsOnTarget: number;
  resolvedAt: string | null;
  resolutionNote: string | null;
}

export interface AdminReportListDto {
  reports: AdminReportDto[];
  counts: { open: number; resolved: number; dismissed: number };
  pagination: { page: number; limit: number; hasMore: boolean };
}

/** A member the caller has blocked (GET /api/users/me/blocks). */
export interface BlockDto {
  /** The blocked member's id. */
  _id: string;
  username: string;
  /** When the block was made. */
  createdAt: string;
}

// ---------- Notifications ----------

/** Spec section 3: a notification as GET /api/notifications lists it. */
export interface NotificationDto {
  _id: string;
  /** Who caused it; null for the site itself (moderation decisions) or a deleted account. */
  sender: { _id: string; username: string } | null;
  type: 'follow' | 'like' | 'comment' | 'video_approved' | 'video_rejected' | 'site_notice';
  /** Where clicking it goes; '#' means nowhere. */
  link: string;
  /** The text to show: the stored message, or the spec's default for the type (section 8). */
  message: string;
  createdAt: string;
  read: boolean;
}

export interface NotificationListDto {
  notifications: NotificationDto[];
  /** All of the member's unread notifications, not just this page's. */
  unreadCount: number;
  pagination: { hasMore: boolean; nextCursor: string | null };
}

// ---------- Comments ----------

/** A comment as GET /api/videos/{streamVideoId}/comments lists it: plain text, shown escaped. */
export interface CommentDto {
  _id: string;
  body: string;
  createdAt: string;
  /** Set when the author last changed the text; null if never edited. */
  editedAt: string | null;
  author: { _id: string; username: string; profilePhotoUrl: string | null };
  /** The top-level comment a reply answers; null for a top-level comment. */
  parentId: string | null;
  /** Replies to a top-level comment, counted when read (those of members the caller blocked left out); 0 for replies. */
  replyCount: number;
}

/** GET /api/comments/{id}/replies: one page of a comment's replies, oldest first. */
export interface ReplyPageDto {
  replies: CommentDto[];
  total: number;
  pagination: { page: number; limit: number; hasMore: boolean };
}

/** GET /api/comments/{id}: one comment and, for a reply, its top-level comment (what a #comment-{id} link shows when it is not on the loaded page). */
export interface CommentThreadDto {
  comment: CommentDto;
  parent: CommentDto | null;
}

/** One page of a video's comments, newest first; pass nextCursor back as `cursor` for the next page. */
export interface CommentPageDto {
  comments: CommentDto[];
  /** Top-level comments on the video (those of members the caller blocked left out); replies are counted on their parent. */
  total: number;
  pagination: { limit: number; hasMore: boolean; nextCursor: string | null };
}

// ---------- Likes ----------

/** What POST, DELETE and GET /api/videos/{streamVideoId}/like answer: whether the caller likes the video, and its like count. */
export interface LikeStateDto {
  liked: boolean;
  likes: number;
}

// ---------- Follows and profiles ----------

/** What POST, DELETE and GET /api/users/{username}/follow answer: whether the caller follows the member, and their follower count. */
export interface FollowStateDto {
  following: boolean;
  followers: number;
}

/** A member's public profile (GET /api/users/{username}); counts cover public videos only. */
export interface ProfileDto {
  _id: string;
  username: string;
  /** Plain text; render it escaped, never as HTML. */
  bio: string;
  profilePhotoUrl: string | null;
  /** When they joined. */
  createdAt: string;
  counts: { videos: number; followers: number; following: number; likesReceived: number };
  /** The VIP daily task's reward counter (tasks completed, ever) and the current streak of consecutive UTC days (0 once a day was missed). */
  rewards: { tasks: number; streak: number };
  /** Whether the caller follows them (present whenever a member asks, which the API requires). */
  isFollowing?: boolean;
  isSelf: boolean;
}

/** A creator suggested to someone who follows nobody yet (uploaders of the current top videos). */
export interface CreatorSuggestionDto {
  _id: string;
  username: string;
  profilePhotoUrl: string | null;
  /** Their public videos. */
  videos: number;
  followers: number;
}

// ---------- Admin ----------

/** A member as the admin panel lists them. */
export interface AdminMemberDto {
  _id: string;
  username: string;
  email: string;
  emailVerified: boolean;
  isAdmin: boolean;
  isVIP: boolean;
  vipUntil: string | null;
  banned: boolean;
  bannedAt: string | null;
  banReason: string | null;
  createdAt: string;
  /** Daily tasks completed. */
  tasks: number;
  /** Uploads in any state. */
  videos: number;
}

export interface AdminMemberListDto {
  members: AdminMemberDto[];
  pagination: { page: number; limit: number; hasMore: boolean };
}

export interface AdminEntitlementDto {
  _id: string;
  source: string;
  planId: string | null;
  status: string;
  periodEnd: string;
  createdAt: string;
  note: string | null;
}

/** One member in detail: the account, counts, VIP periods and what admins did to it. */
export interface AdminMemberDetailDto extends AdminMemberDto {
  bannedBy: string | null;
  counts: {
    followers: number;
    following: number;
    comments: number;
    videosPending: number;
    videosApproved: number;
    videosRejected: number;
    openReports: number;
  };
  entitlements: AdminEntitlementDto[];
  history: AuditEntryDto[];
}

/** One admin action: who did what to what, and when. */
export interface AuditEntryDto {
  _id: string;
  /** _id is null when the admin's account has since been deleted. */
  admin: { _id: string | null; username: string };
  action: string;
  targetType: string;
  targetId: string;
  summary: string;
  details: Record<string, unknown>;
  /** Where the target is in the panel or on the site, when it has a page. */
  link: string | null;
  createdAt: string;
}

export interface AuditLogDto {
  entries: AuditEntryDto[];
  pagination: { page: number; limit: number; hasMore: boolean };
}

/** GET /api/admin/stats: the dashboard's figures. */
export interface AdminStatsDto {
  members: { total: number; verified: number; banned: number; admins: number; vip: number; newLast7Days: number };
  videos: {
    total: number;
    byModeration: { pending: number; approved: number; rejected: number };
    byProcessing: { queued: number; processing: number; ready: number; failed: number };
    /** Pending and processed: what a moderator can decide on now. */
    awaitingReview: number;
  };
  /** Uploads per UTC day, oldest first, the last `days` days including today (days without uploads are 0). */
  uploadsPerDay: { day: string; count: number }[];
  reports: { open: number; overdue: number; urgent: number };
  generatedAt: string;
}

// ---------- Daily task (VIP) ----------

/** GET /api/dailytasks/today: today's task (UTC day) for a VIP member. */
export interface DailyTaskTodayDto {
  /** Spec section 3: the task itself, plain text (render it escaped). */
  description: string;
  /** The UTC day the task belongs to, YYYY-MM-DD. */
  day: string;
  /** Whether the caller has completed it (one completion per member per UTC day). */
  completed: boolean;
  /** The next UTC midnight (ISO): when the next task arrives. */
  nextTaskAt: string;
  /** The caller's current streak of consecutive UTC days (0 after a missed day). */
  streak: number;
}

/** POST /api/users/complete-task. */
export interface CompleteTaskDto {
  success: true;
  /** The member's new reward counter. */
  tasks: number;
  /** ISO time of this completion. */
  lastTaskCompleted: string;
  streak: number;
}

/** A daily task as the admin API lists it. */
export interface AdminDailyTaskDto {
  _id: string;
  description: string;
  /** The UTC day it is scheduled for; null for a pool task. */
  scheduledFor: string | null;
  /** The last UTC day the pool handed it out (pool tasks), or null. */
  lastUsedOn: string | null;
  /** Days the pool has handed it out. */
  timesUsed: number;
  createdAt: string;
  updatedAt: string;
}

/** GET /api/admin/daily-tasks. */
export interface AdminDailyTasksDto {
  today: {
    day: string;
    /** Today's task as members get it, and where it came from; null when there is none. */
    task: AdminDailyTaskDto | null;
    source: 'scheduled' | 'pool' | null;
    /** Members who completed it so far. */
    completions: number;
  };
  /** Tasks scheduled for today or later, soonest first. */
  scheduled: AdminDailyTaskDto[];
  /** Unscheduled tasks, least recently used first (the order the pool picks them in, ties aside). */
  pool: AdminDailyTaskDto[];
}

// ---------- VIP and payments ----------

/** A VIP plan as /subscribe offers it (from VIP_PLANS). */
export interface VipPlanDto {
  id: string;
  name: string;
  /** Decimal with two places, e.g. "9.99". */
  priceAmount: string;
  priceCurrency: string;
  /** Days of VIP one payment buys. */
  periodDays: number;
  /** Renewed by the processor until cancelled; false for a one-time pass. */
  recurring: boolean;
}

/** A period of VIP the member has now (active, or cancelled but still paid up). */
export interface VipEntitlementDto {
  _id: string;
  /** `verotel`: bought; `manual`: granted by the site's team. */
  source: 'verotel' | 'manual';
  planId: string | null;
  /** The plan's name from configuration, when it still exists. */
  planName: string | null;
  status: 'active' | 'cancelled';
  recurring: boolean;
  /** When this VIP ends unless it is renewed (ISO). */
  periodEnd: string;
  cancelledAt: string | null;
  /** The processor's signed cancel page for an active recurring subscription; null otherwise. */
  cancelUrl: string | null;
}

export interface VipStatusDto {
  plans: VipPlanDto[];
  /** False when no processor is configured: checkout answers 503. */
  paymentsAvailable: boolean;
  /** Null for visitors. */
  member: { isVIP: boolean; vipUntil: string | null; entitlements: VipEntitlementDto[] } | null;
}

export interface VipCheckoutDto {
  /** The signed processor URL the browser goes to. */
  url: string;
}

/** The member's data export (GET/POST /api/users/me/export); null when there is none (or it expired). */
export interface DataExportDto {
  _id: string;
  status: 'pending' | 'ready' | 'failed';
  requestedAt: string;
  readyAt: string | null;
  /** Until when the download works (ready only). */
  expiresAt: string | null;
  /** From when a fresh export can replace this one (ready only). */
  renewableAt: string | null;
  /** Whether a fresh export can be asked for now (ready, and renewableAt has passed). */
  canRenew: boolean;
  sizeBytes: number | null;
  /** The login-only download link (ready only). */
  downloadUrl: string | null;
  /** Why it failed, for the member (failed only). */
  error: string | null;
}

/** Where a member's identity verification stands: never sent, under review, verified, or rejected (they can send new documents). */
export type VerificationState = 'none' | 'pending' | 'approved' | 'rejected';

/** The member's own verification (GET/POST /api/users/me/verification). */
export interface MyVerificationDto {
  /** The newest submission's id (null when none). */
  _id: string | null;
  status: VerificationState;
  /** False in production without VERIFICATION_KEY: the form says verification is not available. */
  available: boolean;
  submittedAt: string | null;
  reviewedAt: string | null;
  /** Why it was rejected (rejected only). */
  rejectionReason: string | null;
  /** The statement of reasons of a rejection (/decisions/{id}). */
  decisionLink: string | null;
}

/** One submission in the admin queue (GET /api/admin/verifications). */
export interface VerificationSummaryDto {
  _id: string;
  status: 'pending' | 'approved' | 'rejected';
  provider: string;
  member: { _id: string; username: string | null };
  legalName: string;
  dateOfBirth: string;
  submittedAt: string;
  reviewedAt: string | null;
  reviewedBy: string | null;
  rejectionReason: string | null;
}

export interface VerificationDocumentDto {
  _id: string;
  purpose: string;
  mediaType: string;
  byteSize: number;
  /** The admin-only, audited route that serves it. */
  url: string;
}

/** One submission with its documents (GET /api/admin/verifications/{id}). */
export interface VerificationDetailDto extends VerificationSummaryDto {
  /** Age today, from the date of birth. */
  age: number;
  idDocument: VerificationDocumentDto | null;
  selfie: VerificationDocumentDto | null;
  /** The member's other submissions, newest first. */
  history: VerificationSummaryDto[];
}

/** A playlist in a list (GET /api/playlists: the caller's own). Counts and the picture are of its videos that are public now. */
export interface PlaylistSummaryDto {
  /** The public id in its URL (/playlist/{id}). */
  id: string;
  title: string;
  description: string;
  visibility: 'private' | 'unlisted' | 'public';
  videoCount: number;
  /** The first public video's thumbnail, or null. */
  thumbnailUrl: string | null;
  createdAt: string;
  updatedAt: string;
  /** Only with GET /api/playlists?video={streamVideoId}: whether the playlist holds that video. */
  hasVideo?: boolean;
}

/** One playlist (GET /api/playlists/{id}): its owner and its public videos in order. */
export interface PlaylistDto extends PlaylistSummaryDto {
  owner: { _id: string; username: string };
  videos: VideoDto[];
}

/** GET /api/playlists. */
export interface PlaylistListDto {
  playlists: PlaylistSummaryDto[];
}

/** PUT/DELETE /api/playlists/{id}/videos/{streamVideoId}. */
export interface PlaylistMembershipDto {
  inPlaylist: boolean;
  videoCount: number;
}
