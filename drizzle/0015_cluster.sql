CREATE TABLE "blob_chunks" (
	"sha256" text NOT NULL,
	"idx" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "blob_chunks_sha256_idx_pk" PRIMARY KEY("sha256","idx")
);
--> statement-breakpoint
CREATE TABLE "blobs" (
	"sha256" text PRIMARY KEY NOT NULL,
	"size" bigint NOT NULL,
	"chunks" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "host_leases" (
	"key" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"generation" bigint DEFAULT 1 NOT NULL,
	"acquired_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "host_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"lease_key" text NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone,
	"ok" boolean,
	"result" jsonb
);
--> statement-breakpoint
CREATE TABLE "replicas" (
	"id" text PRIMARY KEY NOT NULL,
	"hostname" text NOT NULL,
	"address" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_leases" (
	"id" text PRIMARY KEY NOT NULL,
	"sandbox_key" text NOT NULL,
	"holder" text NOT NULL,
	"reason" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "terminal_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"replica" text NOT NULL,
	"user_id" text NOT NULL,
	"sandbox_id" text NOT NULL,
	"info" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "terminal_tickets" (
	"hash" text PRIMARY KEY NOT NULL,
	"claims" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"sha256" text NOT NULL,
	"size" bigint NOT NULL,
	"filename" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "host_requests_pending_idx" ON "host_requests" USING btree ("lease_key","id") WHERE "host_requests"."done_at" is null;--> statement-breakpoint
CREATE INDEX "sandbox_leases_sandbox_idx" ON "sandbox_leases" USING btree ("sandbox_key");--> statement-breakpoint
CREATE INDEX "terminal_sessions_replica_idx" ON "terminal_sessions" USING btree ("replica");--> statement-breakpoint
CREATE INDEX "terminal_tickets_expiry_idx" ON "terminal_tickets" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "uploads_sha256_idx" ON "uploads" USING btree ("sha256");--> statement-breakpoint
CREATE INDEX "uploads_expires_idx" ON "uploads" USING btree ("expires_at");