CREATE TABLE "exec_approvals" (
	"id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"command" text NOT NULL,
	"segment" text DEFAULT '' NOT NULL,
	"rule" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"requested_by" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	"note" text,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "exec_log" (
	"id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"session_id" text,
	"profile" text NOT NULL,
	"command" text NOT NULL,
	"decision" text NOT NULL,
	"rule" text NOT NULL,
	"segment" text DEFAULT '' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"outcome" text NOT NULL,
	"exit_code" integer,
	"duration_ms" integer,
	"stdout_truncated" boolean DEFAULT false NOT NULL,
	"stderr_truncated" boolean DEFAULT false NOT NULL,
	"approval_id" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exec_session_files" (
	"agent_id" text NOT NULL,
	"session_id" text NOT NULL,
	"path" text NOT NULL,
	"scanned_clean" boolean DEFAULT false NOT NULL,
	"written_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exec_session_files_agent_id_session_id_path_pk" PRIMARY KEY("agent_id","session_id","path")
);
--> statement-breakpoint
CREATE TABLE "risk_profiles" (
	"name" text PRIMARY KEY NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"rules" jsonb NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "risk_profile" text;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "policy_overrides" jsonb;--> statement-breakpoint
CREATE INDEX "exec_approvals_state_idx" ON "exec_approvals" USING btree ("state","expires_at");--> statement-breakpoint
CREATE INDEX "exec_approvals_agent_idx" ON "exec_approvals" USING btree ("agent_id","requested_at");--> statement-breakpoint
CREATE INDEX "exec_log_agent_idx" ON "exec_log" USING btree ("agent_id","at");