ALTER TABLE "lab_projects" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "csv_imports" ADD COLUMN "lease_until" timestamp with time zone;