CREATE TABLE "briefings" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"content" jsonb NOT NULL,
	"author_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "estimate_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"quote_id" text NOT NULL,
	"position" integer NOT NULL,
	"label" text NOT NULL,
	"quantity" numeric(14, 2) NOT NULL,
	"unit_price" numeric(14, 2) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "estimate_quotes" (
	"id" text PRIMARY KEY NOT NULL,
	"client_name" text NOT NULL,
	"signed_at" bigint,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_comments" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"author_id" integer NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"client_name" text NOT NULL,
	"key_account_id" integer,
	"actor" text,
	"action_code" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"estimate_id" text,
	"search_key" text GENERATED ALWAYS AS (lower(replace(replace(translate(name || chr(10) || client_name, 'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÝýÿŸ', 'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOOooooooUUUUuuuuYyyY'), 'œ', 'oe'), 'Œ', 'OE'))) STORED NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "target_comments" (
	"id" serial PRIMARY KEY NOT NULL,
	"target_id" integer NOT NULL,
	"author_id" integer NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "targets" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"action_code" text,
	"status" text DEFAULT '1. offline - préparation' NOT NULL,
	"status_rank" smallint DEFAULT 0 NOT NULL,
	"type" text,
	"advert_id" integer,
	"tool_id" integer,
	"promote_in_search" boolean DEFAULT false NOT NULL,
	"population_category" text,
	"population_sample" text,
	"population_size" integer,
	"goal_views" bigint DEFAULT 0 NOT NULL,
	"goal_days" integer DEFAULT 0 NOT NULL,
	"goal_shipments" bigint DEFAULT 0 NOT NULL,
	"start_date" bigint,
	"end_date" bigint,
	"check_date" bigint,
	"quotation_signed_month" bigint,
	"initial_quotation_date" bigint,
	"revenue" numeric(14, 2),
	"release_date_diff" integer,
	"delay_reason" text,
	"revenue_delay_impact" numeric(14, 2),
	"actor" text,
	"key_account_id" integer,
	"comment" text,
	"is_new" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "briefings" ADD CONSTRAINT "briefings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "briefings" ADD CONSTRAINT "briefings_author_id_accounts_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "estimate_lines" ADD CONSTRAINT "estimate_lines_quote_id_estimate_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."estimate_quotes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_comments" ADD CONSTRAINT "project_comments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_comments" ADD CONSTRAINT "project_comments_author_id_accounts_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_key_account_id_accounts_id_fk" FOREIGN KEY ("key_account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "target_comments" ADD CONSTRAINT "target_comments_target_id_targets_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."targets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "target_comments" ADD CONSTRAINT "target_comments_author_id_accounts_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "targets" ADD CONSTRAINT "targets_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "targets" ADD CONSTRAINT "targets_key_account_id_accounts_id_fk" FOREIGN KEY ("key_account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "briefings_project_key" ON "briefings" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "estimate_lines_quote_idx" ON "estimate_lines" USING btree ("quote_id","position");--> statement-breakpoint
CREATE INDEX "project_comments_project_idx" ON "project_comments" USING btree ("project_id","id");--> statement-breakpoint
CREATE INDEX "projects_status_id_idx" ON "projects" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "projects_key_account_idx" ON "projects" USING btree ("key_account_id","id");--> statement-breakpoint
CREATE INDEX "projects_name_idx" ON "projects" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "projects_client_idx" ON "projects" USING btree (lower("client_name"));--> statement-breakpoint
CREATE INDEX "target_comments_target_idx" ON "target_comments" USING btree ("target_id","id");--> statement-breakpoint
CREATE INDEX "targets_project_idx" ON "targets" USING btree ("project_id","position","id");--> statement-breakpoint
CREATE UNIQUE INDEX "targets_project_action_code_key" ON "targets" USING btree ("project_id","action_code");--> statement-breakpoint
CREATE INDEX "targets_status_rank_idx" ON "targets" USING btree ("status_rank","id");--> statement-breakpoint
CREATE INDEX "targets_type_idx" ON "targets" USING btree ("type","status_rank","id");--> statement-breakpoint
CREATE INDEX "targets_start_date_idx" ON "targets" USING btree ("start_date");--> statement-breakpoint
CREATE INDEX "targets_end_date_idx" ON "targets" USING btree ("end_date");--> statement-breakpoint
CREATE INDEX "targets_action_code_idx" ON "targets" USING btree ("action_code");--> statement-breakpoint
CREATE INDEX "targets_advert_idx" ON "targets" USING btree ("advert_id");--> statement-breakpoint
CREATE INDEX "targets_key_account_idx" ON "targets" USING btree ("key_account_id","status_rank","id");