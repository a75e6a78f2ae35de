CREATE TABLE "videos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"stream_video_id" text NOT NULL,
	"owner_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"category" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"processing_state" text DEFAULT 'queued' NOT NULL,
	"processing_error" text,
	"moderation_status" text DEFAULT 'pending' NOT NULL,
	"rejection_reason" text,
	"source_key" text NOT NULL,
	"source_bytes" bigint NOT NULL,
	"duration_seconds" double precision,
	"width" integer,
	"height" integer,
	"thumbnail_key" text,
	"views" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "videos_stream_video_id_key" ON "videos" USING btree ("stream_video_id");--> statement-breakpoint
CREATE INDEX "videos_owner_id_idx" ON "videos" USING btree ("owner_id");