ALTER TABLE "accounts" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "updated_by" integer;--> statement-breakpoint
ALTER TABLE "audience_groups" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "audience_groups" ADD COLUMN "updated_by" integer;--> statement-breakpoint
ALTER TABLE "audiences" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "audiences" ADD COLUMN "updated_by" integer;--> statement-breakpoint
ALTER TABLE "adverts" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "adverts" ADD COLUMN "updated_by" integer;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "updated_by" integer;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "updated_by" integer;--> statement-breakpoint
ALTER TABLE "targets" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "targets" ADD COLUMN "updated_by" integer;--> statement-breakpoint
ALTER TABLE "lab_projects" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_projects" ADD COLUMN "updated_by" integer;--> statement-breakpoint
ALTER TABLE "lab_tags" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_tags" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_tags" ADD COLUMN "updated_by" integer;