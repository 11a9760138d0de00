ALTER TABLE "sandbox_configs" ADD COLUMN "network_policy" jsonb DEFAULT '{"denyEgressByDefault":false,"allowOut":[],"denyOut":[],"cubeRules":[],"e2bHostRules":[]}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_configs" ADD COLUMN "network_secrets_sealed" text;--> statement-breakpoint
ALTER TABLE "sandbox_configs" ADD COLUMN "network_secret_names" jsonb DEFAULT '[]'::jsonb NOT NULL;