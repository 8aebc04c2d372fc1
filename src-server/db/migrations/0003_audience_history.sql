CREATE TABLE "audience_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"subject_kind" text NOT NULL,
	"subject_id" integer NOT NULL,
	"action" text NOT NULL,
	"operation" text NOT NULL,
	"account_id" integer,
	"account_name" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"changes" jsonb NOT NULL,
	"snapshot" jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audience_history_subject_idx" ON "audience_history" USING btree ("subject_id","id");--> statement-breakpoint
CREATE INDEX "audience_history_deleted_idx" ON "audience_history" USING btree ("subject_kind","action","id");