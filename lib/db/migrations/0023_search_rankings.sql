CREATE TABLE "search_rankings" (
	"key" text PRIMARY KEY NOT NULL,
	"tsquery" text NOT NULL,
	"lowered" text NOT NULL,
	"sort" text NOT NULL,
	"duration" text,
	"ids" uuid[] NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL
);
