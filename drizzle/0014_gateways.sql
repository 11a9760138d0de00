CREATE TABLE "gateways" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"location" jsonb NOT NULL,
	"token_sealed" text,
	"agent_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"auto_sync" boolean DEFAULT true NOT NULL,
	"owned" jsonb DEFAULT '{"entries":[],"defaults":false}'::jsonb NOT NULL,
	"status" jsonb,
	"drift" jsonb,
	"last_sync" jsonb,
	"synced_key" text,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "gateways_name_idx" ON "gateways" USING btree ("name");