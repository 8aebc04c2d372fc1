-- Quote imports staged (docs/security.md): an import writes its lines in short batches under its own import id, then its
-- quotes point at them (estimate_quotes.import_id) in one short statement. Lines stored before keep import_id null,
-- as their quotes do. The lines no longer reference the quote: they are written before it exists.
CREATE TABLE "estimate_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"switched_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "estimate_lines" DROP CONSTRAINT "estimate_lines_quote_id_estimate_quotes_id_fk";
--> statement-breakpoint
ALTER TABLE "estimate_lines" ADD COLUMN "import_id" integer;--> statement-breakpoint
ALTER TABLE "estimate_quotes" ADD COLUMN "import_id" integer;