ALTER TABLE "push_messages" DROP CONSTRAINT "push_messages_campaign_id_push_campaigns_id_fk";
--> statement-breakpoint
DROP INDEX "push_messages_user";--> statement-breakpoint
ALTER TABLE "push_campaigns" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;