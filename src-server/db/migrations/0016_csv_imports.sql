-- CSV list imports (docs/imports.md): the jobs, and the valid rows of an import under way (staged, then merged in one transaction).
CREATE TABLE "csv_import_rows" (
	"import_id" integer NOT NULL,
	"line" integer NOT NULL,
	"external_id" text,
	"email" text,
	"name" text,
	"profession_id" integer,
	"specialty_id" integer,
	"title" text,
	"area" text,
	"country_id" integer,
	"zipcode" text,
	"uga" text,
	"workplace" text,
	"os" text,
	"roles" text[],
	"feeds" text[],
	"apps" text[]
);
--> statement-breakpoint
CREATE TABLE "csv_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"filename" text NOT NULL,
	"mapping" jsonb NOT NULL,
	"account_id" integer,
	"state" text DEFAULT 'queued' NOT NULL,
	"phase" text,
	"rows_read" integer DEFAULT 0 NOT NULL,
	"rows_valid" integer DEFAULT 0 NOT NULL,
	"rows_written" integer DEFAULT 0 NOT NULL,
	"inserted" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"error_count" integer DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"message" text,
	"cancel_requested_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "csv_imports" ADD CONSTRAINT "csv_imports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "csv_import_rows_import_external_idx" ON "csv_import_rows" USING btree ("import_id","external_id");--> statement-breakpoint
-- Staged rows never need to survive a crash (an interrupted import is failed at the next start): no WAL for them.
ALTER TABLE "csv_import_rows" SET UNLOGGED;
