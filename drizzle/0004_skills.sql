CREATE TABLE "skill_entries" (
	"skill_key" text PRIMARY KEY NOT NULL,
	"enabled" boolean,
	"env_sealed" text,
	"env_names" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"api_key_sealed" text,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
CREATE TABLE "skill_installs" (
	"id" text PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"version" text NOT NULL,
	"content_hash" text NOT NULL,
	"source" jsonb NOT NULL,
	"verdict" text NOT NULL,
	"findings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"registry_verdict" jsonb,
	"installed_by" text NOT NULL,
	"installed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"job_id" text
);
--> statement-breakpoint
CREATE TABLE "skill_scan_acks" (
	"content_hash" text PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"acknowledged_by" text NOT NULL,
	"acknowledged_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "skill_installs_slug_idx" ON "skill_installs" USING btree ("slug","installed_at");