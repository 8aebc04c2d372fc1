CREATE TABLE "population_undo" (
	"external_id" text NOT NULL,
	"user_id" integer,
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
