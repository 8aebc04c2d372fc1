CREATE TABLE "bat_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"layer_id" integer NOT NULL,
	"position" integer NOT NULL,
	"item_key" text NOT NULL,
	"x" integer NOT NULL,
	"y" integer NOT NULL,
	"w" integer NOT NULL,
	"h" integer NOT NULL,
	"type" text NOT NULL,
	"url" text,
	"display_app" boolean DEFAULT false NOT NULL,
	"content" jsonb
);
--> statement-breakpoint
CREATE TABLE "bat_layers" (
	"id" serial PRIMARY KEY NOT NULL,
	"page_id" integer NOT NULL,
	"level" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bat_pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"advert_id" integer NOT NULL,
	"page_number" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bat_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"advert_id" integer NOT NULL,
	"number" integer NOT NULL,
	"state" text DEFAULT 'draft' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"state_by" text NOT NULL,
	"state_at" timestamp with time zone DEFAULT now() NOT NULL,
	"storage_key" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bats" (
	"advert_id" integer PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "bat_items" ADD CONSTRAINT "bat_items_layer_id_bat_layers_id_fk" FOREIGN KEY ("layer_id") REFERENCES "public"."bat_layers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bat_layers" ADD CONSTRAINT "bat_layers_page_id_bat_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."bat_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bat_pages" ADD CONSTRAINT "bat_pages_advert_id_bats_advert_id_fk" FOREIGN KEY ("advert_id") REFERENCES "public"."bats"("advert_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bat_versions" ADD CONSTRAINT "bat_versions_advert_id_adverts_id_fk" FOREIGN KEY ("advert_id") REFERENCES "public"."adverts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bats" ADD CONSTRAINT "bats_advert_id_adverts_id_fk" FOREIGN KEY ("advert_id") REFERENCES "public"."adverts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bat_items_layer" ON "bat_items" USING btree ("layer_id","position");--> statement-breakpoint
CREATE INDEX "bat_layers_page" ON "bat_layers" USING btree ("page_id","level");--> statement-breakpoint
CREATE INDEX "bat_pages_advert" ON "bat_pages" USING btree ("advert_id","page_number");--> statement-breakpoint
CREATE UNIQUE INDEX "bat_versions_number" ON "bat_versions" USING btree ("advert_id","number");--> statement-breakpoint
-- Adverts captured before the editor existed get their proof: one page with one layer, the captures as its library.
INSERT INTO "bats" ("advert_id") SELECT DISTINCT "advert_id" FROM "bat_screenshots" ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "bat_pages" ("advert_id", "page_number") SELECT "advert_id", 1 FROM "bats";--> statement-breakpoint
INSERT INTO "bat_layers" ("page_id", "level") SELECT "id", 1 FROM "bat_pages";
