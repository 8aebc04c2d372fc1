-- Read whole by the followers, never queried inside: json keeps the text as written (jsonb parsed it), and EXTERNAL
-- keeps it uncompressed (base64 ids hardly compress; pglz took as long as the write).
ALTER TABLE "population_changes" ALTER COLUMN "payload" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "population_changes" ALTER COLUMN "payload" SET STORAGE EXTERNAL;
