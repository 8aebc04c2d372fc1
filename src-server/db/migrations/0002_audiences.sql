-- nodes first: audiences take their ids from nodes_id_seq.
CREATE TABLE "nodes" (
	"id" serial PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"value" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"external_id" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"profession_id" integer,
	"specialty_id" integer,
	"title" text,
	"area" text,
	"country_id" integer,
	"zipcode" text,
	"uga" text,
	"workplace" text,
	"roles" text[] DEFAULT '{}'::text[] NOT NULL,
	"feeds" text[] DEFAULT '{}'::text[] NOT NULL,
	"apps" text[] DEFAULT '{}'::text[] NOT NULL,
	"os" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audience_groups" (
	"node_id" integer PRIMARY KEY NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audiences" (
	"id" integer PRIMARY KEY DEFAULT nextval('nodes_id_seq') NOT NULL,
	"name" text NOT NULL,
	"type" text,
	"area" text DEFAULT 'french' NOT NULL,
	"is_in_catalog" boolean DEFAULT false NOT NULL,
	"author_id" integer,
	"author_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "interaction_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"user_id" integer NOT NULL,
	"node_id" integer NOT NULL,
	"event" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"tx" "xid8" DEFAULT pg_current_xact_id() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "population_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"tx" "xid8" DEFAULT pg_current_xact_id() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "relationships" (
	"id" serial PRIMARY KEY NOT NULL,
	"audience_id" integer,
	"group_id" integer,
	"node_id" integer NOT NULL,
	"type" text DEFAULT 'AND' NOT NULL,
	"kind" text DEFAULT 'required' NOT NULL,
	"event" text,
	"caping" integer,
	CONSTRAINT "relationships_one_owner" CHECK (("relationships"."audience_id" IS NULL) <> ("relationships"."group_id" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "audience_groups" ADD CONSTRAINT "audience_groups_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relationships" ADD CONSTRAINT "relationships_audience_id_audiences_id_fk" FOREIGN KEY ("audience_id") REFERENCES "public"."audiences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relationships" ADD CONSTRAINT "relationships_group_id_audience_groups_node_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."audience_groups"("node_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relationships" ADD CONSTRAINT "relationships_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_users_external_id_key" ON "app_users" USING btree ("external_id");--> statement-breakpoint
CREATE INDEX "app_users_email_prefix_idx" ON "app_users" USING btree (lower("email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "audiences_created_at_idx" ON "audiences" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "audiences_name_idx" ON "audiences" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "interaction_events_event_id_key" ON "interaction_events" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "interaction_events_user_idx" ON "interaction_events" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "interaction_events_node_idx" ON "interaction_events" USING btree ("node_id","event","user_id");--> statement-breakpoint
CREATE INDEX "interaction_events_tx_idx" ON "interaction_events" USING btree ("tx");--> statement-breakpoint
CREATE UNIQUE INDEX "nodes_label_value_key" ON "nodes" USING btree ("label","value");--> statement-breakpoint
CREATE INDEX "nodes_label_name_idx" ON "nodes" USING btree ("label",lower("name"));--> statement-breakpoint
CREATE INDEX "population_changes_tx_idx" ON "population_changes" USING btree ("tx");--> statement-breakpoint
CREATE INDEX "relationships_audience_idx" ON "relationships" USING btree ("audience_id");--> statement-breakpoint
CREATE INDEX "relationships_group_idx" ON "relationships" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "relationships_node_idx" ON "relationships" USING btree ("node_id");