-- Job leases: the instance running a CSV import or loading a laboratory panel renews lease_until; past it the job is
-- taken for cut (its instance died) and failed, its staged rows dropped (src-server/jobs/lease.ts).
ALTER TABLE "lab_projects" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "csv_imports" ADD COLUMN "lease_until" timestamp with time zone;