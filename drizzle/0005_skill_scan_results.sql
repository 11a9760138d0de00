CREATE TABLE "skill_scan_results" (
	"content_hash" text PRIMARY KEY NOT NULL,
	"scanner_version" text NOT NULL,
	"verdict" text NOT NULL,
	"findings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"files_scanned" integer NOT NULL,
	"error" text,
	"scanned_at" timestamp with time zone DEFAULT now() NOT NULL
);
