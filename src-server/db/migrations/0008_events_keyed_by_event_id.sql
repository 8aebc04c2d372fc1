DROP INDEX "interaction_events_event_id_key";--> statement-breakpoint
DROP INDEX "interaction_events_node_idx";--> statement-breakpoint
ALTER TABLE "interaction_events" DROP COLUMN "id";--> statement-breakpoint
ALTER TABLE "interaction_events" ADD PRIMARY KEY ("event_id");
