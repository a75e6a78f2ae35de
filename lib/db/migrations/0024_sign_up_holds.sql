CREATE TABLE "sign_up_holds" (
	"username_key" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- Unverified accounts made before holds existed keep their names for the same 7 days from sign-up (SIGN_UP_HOLD_MS).
INSERT INTO "sign_up_holds" ("username_key", "expires_at")
SELECT lower("username"), "created_at" + interval '7 days' FROM "users" WHERE "email_verified_at" IS NULL
ON CONFLICT DO NOTHING;
