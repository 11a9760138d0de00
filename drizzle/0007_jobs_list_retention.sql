DROP INDEX "jobs_created_idx";--> statement-breakpoint
CREATE INDEX "jobs_created_id_idx" ON "jobs" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "jobs_finished_idx" ON "jobs" USING btree ("finished_at");