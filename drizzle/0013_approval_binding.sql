ALTER TABLE "exec_approvals" ADD COLUMN "stdin_sha256" text;--> statement-breakpoint
ALTER TABLE "exec_approvals" ADD COLUMN "cwd" text;--> statement-breakpoint
ALTER TABLE "exec_approvals" ADD COLUMN "timeout_ms" integer;--> statement-breakpoint
ALTER TABLE "exec_approvals" ADD COLUMN "scripts" jsonb;