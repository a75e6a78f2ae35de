CREATE TABLE "copyright_takedowns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"report_id" uuid,
	"video_id" uuid,
	"uploader_id" uuid NOT NULL,
	"video_label" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"claimant_name" text NOT NULL,
	"claimant_address" text NOT NULL,
	"claimant_phone" text NOT NULL,
	"claimant_email" text NOT NULL,
	"claimant_signature" text NOT NULL,
	"work" text NOT NULL,
	"infringing_url" text NOT NULL,
	"lawsuit_token_hash" text,
	"counter_name" text,
	"counter_address" text,
	"counter_phone" text,
	"counter_signature" text,
	"counter_statement" text,
	"counter_at" timestamp with time zone,
	"restore_at" timestamp with time zone,
	"lawsuit_at" timestamp with time zone,
	"lawsuit_details" text,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "source" text DEFAULT 'report' NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "notifier_name" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "notifier_email" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "notifier_signature" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "held_video" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "copyright_takedowns" ADD CONSTRAINT "copyright_takedowns_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copyright_takedowns" ADD CONSTRAINT "copyright_takedowns_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "copyright_takedowns_video_idx" ON "copyright_takedowns" USING btree ("video_id","status");--> statement-breakpoint
CREATE INDEX "copyright_takedowns_uploader_idx" ON "copyright_takedowns" USING btree ("uploader_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "copyright_takedowns_lawsuit_token_key" ON "copyright_takedowns" USING btree ("lawsuit_token_hash");--> statement-breakpoint
CREATE INDEX "reports_due_idx" ON "reports" USING btree ("status","due_at");--> statement-breakpoint
-- Reports older than this migration get a due date of 7 business days (about 9 calendar days) after they arrived.
UPDATE "reports" SET "due_at" = "created_at" + interval '9 days' WHERE "due_at" IS NULL;
