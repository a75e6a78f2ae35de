CREATE TABLE "moderation_decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject_user_id" uuid,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"target_label" text DEFAULT '' NOT NULL,
	"action" text NOT NULL,
	"ground" text NOT NULL,
	"explanation" text DEFAULT '' NOT NULL,
	"automated" boolean DEFAULT false NOT NULL,
	"source" text NOT NULL,
	"decided_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"appeal_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "private_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"media_type" text NOT NULL,
	"byte_size" integer NOT NULL,
	"sha256" text NOT NULL,
	"key_id" text NOT NULL,
	"sealed" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delete_after" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "moderation_decisions_subject_idx" ON "moderation_decisions" USING btree ("subject_user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "moderation_decisions_target_idx" ON "moderation_decisions" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE INDEX "moderation_decisions_created_idx" ON "moderation_decisions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "private_documents_owner_idx" ON "private_documents" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "private_documents_delete_after_idx" ON "private_documents" USING btree ("delete_after");