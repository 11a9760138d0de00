CREATE TABLE "sandbox_configs" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"backend" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"config" jsonb NOT NULL,
	"secrets_sealed" text,
	"secret_names" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"last_check_at" timestamp with time zone,
	"last_check_passed_at" timestamp with time zone,
	"last_check_report" jsonb,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text NOT NULL,
	CONSTRAINT "sandbox_configs_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "sandbox_env_vars" (
	"id" text PRIMARY KEY NOT NULL,
	"level" text NOT NULL,
	"config_id" text DEFAULT '' NOT NULL,
	"user_id" text DEFAULT '' NOT NULL,
	"skill_key" text DEFAULT '' NOT NULL,
	"name" text NOT NULL,
	"value_sealed" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_env_scope_name_idx" ON "sandbox_env_vars" USING btree ("level","config_id","user_id","skill_key","name");--> statement-breakpoint
CREATE INDEX "sandbox_env_config_idx" ON "sandbox_env_vars" USING btree ("config_id");--> statement-breakpoint
CREATE INDEX "sandbox_env_user_idx" ON "sandbox_env_vars" USING btree ("user_id");