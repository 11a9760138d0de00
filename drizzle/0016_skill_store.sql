CREATE SEQUENCE "public"."skill_store_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "skill_store_slugs" (
	"slug" text PRIMARY KEY NOT NULL,
	"active" text,
	"pinned" boolean DEFAULT false NOT NULL,
	"pin_reason" text,
	"removed_at" timestamp with time zone,
	"changed_seq" bigint DEFAULT nextval('skill_store_seq') NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "skill_store_versions" (
	"slug" text NOT NULL,
	"version" text NOT NULL,
	"content_hash" text NOT NULL,
	"blob_sha256" text NOT NULL,
	"blob_size" bigint NOT NULL,
	"record" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "skill_store_versions_slug_version_pk" PRIMARY KEY("slug","version")
);
--> statement-breakpoint
CREATE INDEX "skill_store_versions_blob_idx" ON "skill_store_versions" USING btree ("blob_sha256");