CREATE TABLE "sandbox_artifact_collections" (
	"id" text PRIMARY KEY NOT NULL,
	"config_id" text NOT NULL,
	"config_name" text NOT NULL,
	"backend" text NOT NULL,
	"instance_id" text NOT NULL,
	"sandbox_id" text NOT NULL,
	"principal" text,
	"session_id" text NOT NULL,
	"replaced_by" text,
	"trigger" text NOT NULL,
	"status" text NOT NULL,
	"note" text,
	"skipped" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"file_count" integer DEFAULT 0 NOT NULL,
	"total_bytes" bigint DEFAULT 0 NOT NULL,
	"created_by" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_artifact_files" (
	"id" text PRIMARY KEY NOT NULL,
	"collection_id" text NOT NULL,
	"path" text NOT NULL,
	"name" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"mode" integer DEFAULT 420 NOT NULL,
	"modified_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "sandbox_artifact_files" ADD CONSTRAINT "sandbox_artifact_files_collection_id_sandbox_artifact_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."sandbox_artifact_collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_artifact_collections_config_idx" ON "sandbox_artifact_collections" USING btree ("config_id","started_at");--> statement-breakpoint
CREATE INDEX "sandbox_artifact_collections_instance_idx" ON "sandbox_artifact_collections" USING btree ("instance_id");--> statement-breakpoint
CREATE INDEX "sandbox_artifact_collections_session_idx" ON "sandbox_artifact_collections" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "sandbox_artifact_collections_replaced_idx" ON "sandbox_artifact_collections" USING btree ("replaced_by");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_artifact_files_path_idx" ON "sandbox_artifact_files" USING btree ("collection_id","path");--> statement-breakpoint
CREATE INDEX "sandbox_artifact_files_sha_idx" ON "sandbox_artifact_files" USING btree ("sha256");--> statement-breakpoint
CREATE INDEX "sandbox_artifact_files_name_idx" ON "sandbox_artifact_files" USING btree ("name");