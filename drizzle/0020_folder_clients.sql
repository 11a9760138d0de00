CREATE TABLE "folder_clients" (
	"agent_id" text NOT NULL,
	"client_id" text NOT NULL,
	"host" text NOT NULL,
	"dir" text NOT NULL,
	"mode" text NOT NULL,
	"poll_ms" integer NOT NULL,
	"blocked" integer DEFAULT 0 NOT NULL,
	"version" text,
	"via" text NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "folder_clients_agent_id_client_id_pk" PRIMARY KEY("agent_id","client_id")
);
--> statement-breakpoint
ALTER TABLE "folder_clients" ADD CONSTRAINT "folder_clients_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;