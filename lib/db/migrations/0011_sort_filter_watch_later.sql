CREATE TABLE "watch_later" (
	"user_id" uuid NOT NULL,
	"video_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "watch_later_user_id_video_id_pk" PRIMARY KEY("user_id","video_id")
);
--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "duration_bucket" smallint GENERATED ALWAYS AS (CASE WHEN duration_seconds IS NULL THEN 0 WHEN floor(duration_seconds + 0.5) < 300 THEN 1 WHEN floor(duration_seconds + 0.5) <= 1200 THEN 2 ELSE 3 END) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "watch_later" ADD CONSTRAINT "watch_later_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_later" ADD CONSTRAINT "watch_later_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "watch_later_user_idx" ON "watch_later" USING btree ("user_id","created_at" DESC NULLS LAST,"video_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "watch_later_video_idx" ON "watch_later" USING btree ("video_id");--> statement-breakpoint
CREATE INDEX "videos_public_newest_idx" ON "videos" USING btree ("category","duration_bucket","published_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE processing_state = 'ready' AND moderation_status = 'approved' AND NOT owner_banned;--> statement-breakpoint
CREATE INDEX "videos_public_views_idx" ON "videos" USING btree ("category","duration_bucket","views" DESC NULLS LAST,"published_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE processing_state = 'ready' AND moderation_status = 'approved' AND NOT owner_banned;--> statement-breakpoint
CREATE INDEX "videos_public_likes_idx" ON "videos" USING btree ("category","duration_bucket","likes_count" DESC NULLS LAST,"published_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE processing_state = 'ready' AND moderation_status = 'approved' AND NOT owner_banned;--> statement-breakpoint
CREATE INDEX "videos_public_longest_idx" ON "videos" USING btree ("category","duration_bucket","duration_seconds" DESC NULLS LAST,"published_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE processing_state = 'ready' AND moderation_status = 'approved' AND NOT owner_banned;