CREATE TABLE "sandbox_images" (
	"id" text PRIMARY KEY NOT NULL,
	"config_id" text NOT NULL,
	"generation" integer NOT NULL,
	"parent_generation" integer,
	"state" text DEFAULT 'building' NOT NULL,
	"planned_ref" text NOT NULL,
	"image_id" text,
	"size_bytes" bigint,
	"layers" integer,
	"skills" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"superseded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_skill_installs" (
	"id" text PRIMARY KEY NOT NULL,
	"config_id" text NOT NULL,
	"skill_key" text NOT NULL,
	"skill_name" text NOT NULL,
	"version" text NOT NULL,
	"content_hash" text NOT NULL,
	"state" text NOT NULL,
	"stage" text,
	"percent" integer DEFAULT 0 NOT NULL,
	"job_id" text,
	"notes" text,
	"error" jsonb,
	"image_generation" integer,
	"previous_ready" jsonb,
	"removing_from" text,
	"updatable" boolean DEFAULT false NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_skill_installs_notes_len" CHECK (char_length("sandbox_skill_installs"."notes") <= 2000),
	CONSTRAINT "sandbox_skill_installs_percent_range" CHECK ("sandbox_skill_installs"."percent" between 0 and 100)
);
--> statement-breakpoint
ALTER TABLE "sandbox_images" ADD CONSTRAINT "sandbox_images_config_id_sandbox_configs_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."sandbox_configs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_skill_installs" ADD CONSTRAINT "sandbox_skill_installs_config_id_sandbox_configs_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."sandbox_configs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_skill_installs" ADD CONSTRAINT "sandbox_skill_installs_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_images_config_generation_idx" ON "sandbox_images" USING btree ("config_id","generation");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_images_one_active_idx" ON "sandbox_images" USING btree ("config_id") WHERE "sandbox_images"."state" = 'active';--> statement-breakpoint
CREATE INDEX "sandbox_images_state_idx" ON "sandbox_images" USING btree ("state","superseded_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_skill_installs_config_skill_idx" ON "sandbox_skill_installs" USING btree ("config_id","skill_key");--> statement-breakpoint
CREATE INDEX "sandbox_skill_installs_skill_idx" ON "sandbox_skill_installs" USING btree ("skill_key");