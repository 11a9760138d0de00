CREATE TABLE "agent_defaults" (
	"id" text PRIMARY KEY NOT NULL,
	"skills" jsonb,
	"budget" jsonb,
	"revision" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"sandbox_config_id" text,
	"skills" jsonb,
	"deny_skills" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"budget" jsonb,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "agent_ids" jsonb;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_sandbox_config_id_sandbox_configs_id_fk" FOREIGN KEY ("sandbox_config_id") REFERENCES "public"."sandbox_configs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agents_sandbox_config_idx" ON "agents" USING btree ("sandbox_config_id");