CREATE TABLE "video_text_edits" (
	"video_id" uuid PRIMARY KEY NOT NULL,
	"edit_id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"tags" text[] NOT NULL,
	"proposed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "video_text_edits" ADD CONSTRAINT "video_text_edits_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "video_text_edits_proposed_at_idx" ON "video_text_edits" USING btree ("proposed_at");