CREATE TABLE "skill_update_checks" (
	"slug" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"base_version" text,
	"installed_ref" text,
	"status" text DEFAULT 'unchecked' NOT NULL,
	"latest_ref" text,
	"validators" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"candidate" jsonb,
	"error" text,
	"policy" text,
	"checked_at" timestamp with time zone,
	"applied_at" timestamp with time zone,
	"applied_by" text
);
