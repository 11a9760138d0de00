CREATE TABLE "package_pins" (
	"source" text NOT NULL,
	"name" text NOT NULL,
	"reason" text,
	"pinned_by" text NOT NULL,
	"pinned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "package_pins_source_name_pk" PRIMARY KEY("source","name")
);
--> statement-breakpoint
CREATE TABLE "package_records" (
	"manager" text NOT NULL,
	"name" text NOT NULL,
	"version" text NOT NULL,
	"installed_at" timestamp with time zone NOT NULL,
	"installed_by" text NOT NULL,
	"job_id" text,
	CONSTRAINT "package_records_manager_name_pk" PRIMARY KEY("manager","name")
);
--> statement-breakpoint
CREATE TABLE "package_update_sources" (
	"source" text PRIMARY KEY NOT NULL,
	"checked_at" timestamp with time zone,
	"attempted_at" timestamp with time zone NOT NULL,
	"error" text,
	"details" jsonb
);
--> statement-breakpoint
CREATE TABLE "package_updates" (
	"source" text NOT NULL,
	"name" text NOT NULL,
	"current" text NOT NULL,
	"latest" text NOT NULL,
	"prerelease" boolean DEFAULT false NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"check_error" text,
	"last_job_id" text,
	"last_error" text,
	"last_attempt_at" timestamp with time zone,
	CONSTRAINT "package_updates_source_name_pk" PRIMARY KEY("source","name")
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
CREATE INDEX "package_update_sources_checked_idx" ON "package_update_sources" USING btree ("checked_at");