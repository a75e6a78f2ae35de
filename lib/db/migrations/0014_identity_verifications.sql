CREATE TABLE "identity_verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"provider" text DEFAULT 'manual' NOT NULL,
	"provider_reference" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"legal_name" text NOT NULL,
	"date_of_birth" date NOT NULL,
	"id_document_id" uuid,
	"selfie_document_id" uuid,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" uuid,
	"rejection_reason" text,
	"decision_id" uuid,
	"delete_after" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "identity_verifications_user_idx" ON "identity_verifications" USING btree ("user_id","submitted_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "identity_verifications_queue_idx" ON "identity_verifications" USING btree ("status","submitted_at");--> statement-breakpoint
CREATE UNIQUE INDEX "identity_verifications_one_pending_key" ON "identity_verifications" USING btree ("user_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "identity_verifications_delete_after_idx" ON "identity_verifications" USING btree ("delete_after");