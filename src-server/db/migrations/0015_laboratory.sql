CREATE TABLE "lab_panel_members" (
	"project_id" integer NOT NULL,
	"line" integer NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"surname" text DEFAULT '' NOT NULL,
	"gender" text DEFAULT '' NOT NULL,
	"crits" text[] DEFAULT '{}'::text[] NOT NULL,
	"email" text,
	"external_id" text,
	"app_user_id" integer,
	CONSTRAINT "lab_panel_members_project_id_line_pk" PRIMARY KEY("project_id","line")
);
--> statement-breakpoint
CREATE TABLE "lab_project_accounts" (
	"project_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	CONSTRAINT "lab_project_accounts_project_id_account_id_pk" PRIMARY KEY("project_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "lab_projects" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"specialty_id" integer DEFAULT 26 NOT NULL,
	"pending" boolean DEFAULT true NOT NULL,
	"users_count" integer DEFAULT 0 NOT NULL,
	"matched_count" integer DEFAULT 0 NOT NULL,
	"crits" integer[] DEFAULT '{}'::int[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lab_tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"type" text NOT NULL,
	"level" text DEFAULT 'UNDERSTAND' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"link_title" text DEFAULT '' NOT NULL,
	"link" text DEFAULT '' NOT NULL,
	"query" text DEFAULT '' NOT NULL,
	"params" text DEFAULT '' NOT NULL,
	"users_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lab_panel_members" ADD CONSTRAINT "lab_panel_members_project_id_lab_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."lab_projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_panel_members" ADD CONSTRAINT "lab_panel_members_app_user_id_app_users_id_fk" FOREIGN KEY ("app_user_id") REFERENCES "public"."app_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_project_accounts" ADD CONSTRAINT "lab_project_accounts_project_id_lab_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."lab_projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_project_accounts" ADD CONSTRAINT "lab_project_accounts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_tags" ADD CONSTRAINT "lab_tags_project_id_lab_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."lab_projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lab_panel_members_app_user_idx" ON "lab_panel_members" USING btree ("app_user_id");--> statement-breakpoint
CREATE INDEX "lab_project_accounts_account_idx" ON "lab_project_accounts" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "lab_tags_project_idx" ON "lab_tags" USING btree ("project_id","id");