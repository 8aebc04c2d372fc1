CREATE TABLE "media_libraries" (
	"id" serial PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"owner_id" integer NOT NULL,
	"content" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "media_libraries_owner" ON "media_libraries" USING btree ("label","owner_id");