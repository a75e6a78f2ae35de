ALTER TABLE "admin_audit_log" DROP CONSTRAINT "admin_audit_log_admin_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "payment_events" DROP CONSTRAINT "payment_events_user_id_users_id_fk";
