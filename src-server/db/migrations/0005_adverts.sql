CREATE TABLE "advert_audiences" (
	"advert_id" integer NOT NULL,
	"audience_id" integer NOT NULL,
	CONSTRAINT "advert_audiences_advert_id_audience_id_pk" PRIMARY KEY("advert_id","audience_id")
);
--> statement-breakpoint
CREATE TABLE "adverts" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"type" text,
	"published" boolean DEFAULT false NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"weight" integer DEFAULT 5 NOT NULL,
	"max_views" integer DEFAULT 5 NOT NULL,
	"model" text DEFAULT 'latest' NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"published_at" bigint,
	"unpublished_at" bigint,
	"auto_start_at" bigint,
	"auto_stop_at" bigint,
	"target_id" integer,
	"target" jsonb,
	"action_code" text,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"search_key" text GENERATED ALWAYS AS (lower(replace(replace(translate(name || chr(10) || coalesce(data->>'title', '') || chr(10) || coalesce(data->>'author', ''), 'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÝýÿŸ', 'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOOooooooUUUUuuuuYyyY'), 'œ', 'oe'), 'Œ', 'OE'))) STORED NOT NULL,
	"is_free" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "article_audiences" (
	"article_id" integer NOT NULL,
	"audience_id" integer NOT NULL,
	CONSTRAINT "article_audiences_article_id_audience_id_pk" PRIMARY KEY("article_id","audience_id")
);
--> statement-breakpoint
CREATE TABLE "articles" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"type" text,
	"published" boolean DEFAULT false NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"weight" integer DEFAULT 5 NOT NULL,
	"max_views" integer DEFAULT 5 NOT NULL,
	"model" text DEFAULT 'latest' NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"published_at" bigint,
	"unpublished_at" bigint,
	"auto_start_at" bigint,
	"auto_stop_at" bigint,
	"target_id" integer,
	"target" jsonb,
	"action_code" text,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"search_key" text GENERATED ALWAYS AS (lower(replace(replace(translate(name || chr(10) || coalesce(data->>'title', '') || chr(10) || coalesce(data->>'author', ''), 'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÝýÿŸ', 'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOOooooooUUUUuuuuYyyY'), 'œ', 'oe'), 'Œ', 'OE'))) STORED NOT NULL,
	"is_pinned" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "autopublish_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"item_id" integer NOT NULL,
	"action" text NOT NULL,
	"due_at" bigint NOT NULL,
	"outcome" text NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"instance" text DEFAULT '' NOT NULL,
	"done_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"item_id" integer NOT NULL,
	"action" text NOT NULL,
	"account_id" integer,
	"account_name" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"fields" text[] DEFAULT '{}'::text[] NOT NULL,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE TABLE "content_versions" (
	"name" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "funnel_steps" (
	"id" serial PRIMARY KEY NOT NULL,
	"funnel_uuid" uuid NOT NULL,
	"position" integer NOT NULL,
	"advert_id" integer NOT NULL,
	"min_views" integer DEFAULT 1 NOT NULL,
	"grace_period_ms" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "funnels" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "advert_audiences" ADD CONSTRAINT "advert_audiences_advert_id_adverts_id_fk" FOREIGN KEY ("advert_id") REFERENCES "public"."adverts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advert_audiences" ADD CONSTRAINT "advert_audiences_audience_id_audiences_id_fk" FOREIGN KEY ("audience_id") REFERENCES "public"."audiences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_audiences" ADD CONSTRAINT "article_audiences_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_audiences" ADD CONSTRAINT "article_audiences_audience_id_audiences_id_fk" FOREIGN KEY ("audience_id") REFERENCES "public"."audiences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "funnel_steps" ADD CONSTRAINT "funnel_steps_funnel_uuid_funnels_uuid_fk" FOREIGN KEY ("funnel_uuid") REFERENCES "public"."funnels"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "funnel_steps" ADD CONSTRAINT "funnel_steps_advert_id_adverts_id_fk" FOREIGN KEY ("advert_id") REFERENCES "public"."adverts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "advert_audiences_audience_idx" ON "advert_audiences" USING btree ("audience_id");--> statement-breakpoint
CREATE INDEX "adverts_live_updated_idx" ON "adverts" USING btree ("updated_at","id") WHERE NOT "adverts"."archived";--> statement-breakpoint
CREATE INDEX "adverts_updated_idx" ON "adverts" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "adverts_published_idx" ON "adverts" USING btree ("published","type");--> statement-breakpoint
CREATE INDEX "adverts_weight_idx" ON "adverts" USING btree ("weight","id");--> statement-breakpoint
CREATE INDEX "adverts_target_idx" ON "adverts" USING btree ("target_id");--> statement-breakpoint
CREATE INDEX "adverts_auto_start_idx" ON "adverts" USING btree ("auto_start_at") WHERE "adverts"."auto_start_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "adverts_auto_stop_idx" ON "adverts" USING btree ("auto_stop_at") WHERE "adverts"."auto_stop_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "article_audiences_audience_idx" ON "article_audiences" USING btree ("audience_id");--> statement-breakpoint
CREATE INDEX "articles_live_updated_idx" ON "articles" USING btree ("updated_at","id") WHERE NOT "articles"."archived";--> statement-breakpoint
CREATE INDEX "articles_updated_idx" ON "articles" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "articles_published_idx" ON "articles" USING btree ("published","type");--> statement-breakpoint
CREATE INDEX "articles_auto_start_idx" ON "articles" USING btree ("auto_start_at") WHERE "articles"."auto_start_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "articles_auto_stop_idx" ON "articles" USING btree ("auto_stop_at") WHERE "articles"."auto_stop_at" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "autopublish_log_transition_key" ON "autopublish_log" USING btree ("kind","item_id","action","due_at");--> statement-breakpoint
CREATE INDEX "content_history_item_idx" ON "content_history" USING btree ("kind","item_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "funnel_steps_advert_key" ON "funnel_steps" USING btree ("advert_id");--> statement-breakpoint
CREATE UNIQUE INDEX "funnel_steps_position_key" ON "funnel_steps" USING btree ("funnel_uuid","position");