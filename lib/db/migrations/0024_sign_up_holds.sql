CREATE TABLE "sign_up_holds" (
	"username_key" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"email_key" text,
	"password_hash" text
);
--> statement-breakpoint
CREATE INDEX "sign_up_holds_email_key_idx" ON "sign_up_holds" USING btree ("email_key");--> statement-breakpoint
-- Unverified accounts made before holds existed keep their names, and their logins' "verify your email", for the same 7 days from sign-up (SIGN_UP_HOLD_MS).
INSERT INTO "sign_up_holds" ("username_key", "expires_at", "email_key", "password_hash")
SELECT lower("username"), "created_at" + interval '7 days', lower("email"), "password_hash" FROM "users" WHERE "email_verified_at" IS NULL
ON CONFLICT DO NOTHING;
