CREATE TABLE "consent_withdrawals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"video_id" uuid NOT NULL,
	"stream_video_id" text NOT NULL,
	"video_title" text NOT NULL,
	"legal_name" text NOT NULL,
	"date_of_birth" date NOT NULL,
	"email" text NOT NULL,
	"statement" text NOT NULL,
	"sender_key" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"resolved_by" uuid,
	"resolved_at" timestamp with time zone,
	"resolution_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "video_performers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"video_id" uuid NOT NULL,
	"stream_video_id" text NOT NULL,
	"owner_id" uuid NOT NULL,
	"video_title" text NOT NULL,
	"recorded_on" date NOT NULL,
	"position" smallint NOT NULL,
	"is_uploader" boolean DEFAULT false NOT NULL,
	"legal_name" text,
	"stage_name" text,
	"date_of_birth" date,
	"id_document_id" uuid,
	"consent_type" text NOT NULL,
	"release_signature" text,
	"release_signed_on" date,
	"release_statements" text[],
	"release_document_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delete_after" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "recorded_on" date;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "performers_declared_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "consent_withdrawals_video_idx" ON "consent_withdrawals" USING btree ("video_id","status");--> statement-breakpoint
CREATE INDEX "consent_withdrawals_open_idx" ON "consent_withdrawals" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "video_performers_video_idx" ON "video_performers" USING btree ("video_id","position");--> statement-breakpoint
CREATE INDEX "video_performers_delete_after_idx" ON "video_performers" USING btree ("delete_after");