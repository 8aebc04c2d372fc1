CREATE TABLE "inventory_capacity" (
	"label" text NOT NULL,
	"category_id" integer NOT NULL,
	"name" text NOT NULL,
	"month" date NOT NULL,
	"total_views" bigint NOT NULL,
	CONSTRAINT "inventory_capacity_label_category_id_month_pk" PRIMARY KEY("label","category_id","month")
);
--> statement-breakpoint
CREATE TABLE "inventory_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"file_name" text NOT NULL,
	"rows" integer NOT NULL,
	"months" text[] NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "inventory_staging" (
	"import_id" integer NOT NULL,
	"label" text NOT NULL,
	"category_id" integer NOT NULL,
	"name" text NOT NULL,
	"month" date NOT NULL,
	"total_views" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inventory_imports" ADD CONSTRAINT "inventory_imports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inventory_capacity_month_idx" ON "inventory_capacity" USING btree ("month");--> statement-breakpoint
CREATE INDEX "inventory_staging_import_idx" ON "inventory_staging" USING btree ("import_id");--> statement-breakpoint
-- The targets that book views (goal.views > 0, not cancelled), by category name without case and start day: the
-- consumption of the inventory (src-server/features/inventory/queries.ts) reads only these.
CREATE INDEX "targets_inventory_idx" ON "targets" (lower("population_category"), "start_date") INCLUDE ("end_date", "goal_views") WHERE "goal_views" > 0 AND "status" <> '7. annulé';
