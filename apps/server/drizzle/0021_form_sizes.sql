ALTER TABLE "form" ADD COLUMN "licenceen" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "form" ADD COLUMN "questioncount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "form" ADD COLUMN "indicatorcount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Mirror the current definition's English licence and sizes into the header, as every save now does.
UPDATE "form" SET
  "licenceen" = coalesce(v."definition"->'licence'->>'en', ''),
  "questioncount" = coalesce(jsonb_array_length(v."definition"->'questions'), 0),
  "indicatorcount" = coalesce(jsonb_array_length(v."definition"->'indicators'), 0)
FROM "form_version" v
WHERE v."formcode" = "form"."formcode" AND v."version" = "form"."version";
