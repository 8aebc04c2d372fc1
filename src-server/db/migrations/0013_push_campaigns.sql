CREATE TABLE "app_user_push_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"platform" text NOT NULL,
	"token" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_campaign_batches" (
	"campaign_id" integer NOT NULL,
	"batch" integer NOT NULL,
	"sent_at" bigint NOT NULL,
	"users" integer NOT NULL,
	"sent" integer NOT NULL,
	"failed" integer NOT NULL,
	"instance" text NOT NULL,
	CONSTRAINT "push_campaign_batches_campaign_id_batch_pk" PRIMARY KEY("campaign_id","batch")
);
--> statement-breakpoint
CREATE TABLE "push_campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"created_by" integer,
	"created_by_name" text DEFAULT '' NOT NULL,
	"created_at" bigint NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"navigation" text DEFAULT '' NOT NULL,
	"custom_id" text NOT NULL,
	"target" jsonb NOT NULL,
	"summary" text NOT NULL,
	"total" integer NOT NULL,
	"batch_size" integer NOT NULL,
	"iterations" integer NOT NULL,
	"recipients" "bytea" NOT NULL,
	"state" text NOT NULL,
	"next_batch" integer DEFAULT 0 NOT NULL,
	"next_batch_at" bigint NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"provider" text NOT NULL,
	"started_at" bigint,
	"finished_at" bigint,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "push_messages" (
	"campaign_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"batch" integer NOT NULL,
	"status" text NOT NULL,
	"tokens" integer DEFAULT 0 NOT NULL,
	"payload" jsonb,
	"detail" text,
	"at" bigint NOT NULL,
	CONSTRAINT "push_messages_campaign_id_user_id_pk" PRIMARY KEY("campaign_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "app_user_push_tokens" ADD CONSTRAINT "app_user_push_tokens_user_id_app_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_campaign_batches" ADD CONSTRAINT "push_campaign_batches_campaign_id_push_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."push_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_campaigns" ADD CONSTRAINT "push_campaigns_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_messages" ADD CONSTRAINT "push_messages_campaign_id_push_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."push_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_user_push_tokens_token_key" ON "app_user_push_tokens" USING btree ("token");--> statement-breakpoint
CREATE INDEX "app_user_push_tokens_user" ON "app_user_push_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "push_campaigns_due" ON "push_campaigns" USING btree ("state","next_batch_at");--> statement-breakpoint
CREATE INDEX "push_campaigns_created" ON "push_campaigns" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "push_messages_user" ON "push_messages" USING btree ("user_id");