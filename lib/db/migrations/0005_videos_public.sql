CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"recipient_id" uuid NOT NULL,
	"sender_id" uuid,
	"type" text NOT NULL,
	"link" text DEFAULT '#' NOT NULL,
	"message" text,
	"dedupe_key" text,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "video_likes" (
	"video_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "video_likes_video_id_user_id_pk" PRIMARY KEY("video_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "video_views" (
	"video_id" uuid NOT NULL,
	"viewer_key" text NOT NULL,
	"counted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "video_views_video_id_viewer_key_pk" PRIMARY KEY("video_id","viewer_key")
);
--> statement-breakpoint
DROP INDEX "videos_owner_id_idx";--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "web_mp4_key" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "hls_master_key" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "hls_heights" integer[];--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "likes_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "owner_banned" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (chrysalis_video_search_document(title, description, tags)) STORED;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "moderated_by" uuid;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "moderated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_likes" ADD CONSTRAINT "video_likes_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_likes" ADD CONSTRAINT "video_likes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_views" ADD CONSTRAINT "video_views_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_recipient_idx" ON "notifications" USING btree ("recipient_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("recipient_id") WHERE read_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_dedupe_key" ON "notifications" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "video_likes_user_idx" ON "video_likes" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "video_views_counted_at_idx" ON "video_views" USING btree ("counted_at");--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_moderated_by_users_id_fk" FOREIGN KEY ("moderated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "videos_public_recent_idx" ON "videos" USING btree ("published_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE processing_state = 'ready' AND moderation_status = 'approved' AND NOT owner_banned;--> statement-breakpoint
CREATE INDEX "videos_public_category_idx" ON "videos" USING btree ("category","published_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE processing_state = 'ready' AND moderation_status = 'approved' AND NOT owner_banned;--> statement-breakpoint
CREATE INDEX "videos_public_top_idx" ON "videos" USING btree (("views" + 10 * "likes_count") desc,"published_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE processing_state = 'ready' AND moderation_status = 'approved' AND NOT owner_banned;--> statement-breakpoint
CREATE INDEX "videos_search_idx" ON "videos" USING gin ("search_vector") WHERE processing_state = 'ready' AND moderation_status = 'approved' AND NOT owner_banned;--> statement-breakpoint
CREATE INDEX "videos_title_trgm_idx" ON "videos" USING gin (lower("title") gin_trgm_ops) WHERE processing_state = 'ready' AND moderation_status = 'approved' AND NOT owner_banned;--> statement-breakpoint
CREATE INDEX "videos_moderation_queue_idx" ON "videos" USING btree ("moderation_status","created_at");--> statement-breakpoint
CREATE INDEX "videos_owner_id_idx" ON "videos" USING btree ("owner_id","created_at" DESC NULLS LAST);