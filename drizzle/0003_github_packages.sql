CREATE TABLE "github_digests" (
	"repo" text NOT NULL,
	"tag" text NOT NULL,
	"asset_name" text NOT NULL,
	"sha256" text NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "github_digests_repo_tag_asset_name_pk" PRIMARY KEY("repo","tag","asset_name")
);
--> statement-breakpoint
CREATE TABLE "github_packages" (
	"name" text PRIMARY KEY NOT NULL,
	"repo" text NOT NULL,
	"tag" text NOT NULL,
	"version" text NOT NULL,
	"channel" text DEFAULT 'stable' NOT NULL,
	"release_id" integer,
	"published_at" timestamp with time zone,
	"prerelease" boolean DEFAULT false NOT NULL,
	"asset_id" integer,
	"asset_name" text NOT NULL,
	"asset_url" text NOT NULL,
	"asset_size" integer NOT NULL,
	"sha256" text NOT NULL,
	"checksum_source" text NOT NULL,
	"binaries" jsonb NOT NULL,
	"retained" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"overrides" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"smoke_output" text,
	"installed_at" timestamp with time zone NOT NULL,
	"installed_by" text NOT NULL,
	"problem" text
);
