ALTER TABLE "muser" ADD COLUMN "website" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- The website button read a navbar link (a placeholder in the demo): an https address there moves to the field, the link goes.
UPDATE "muser" SET
  "website" = coalesce((SELECT l->>'url' FROM jsonb_array_elements("navbarlinks") l
    WHERE l->>'key' = 'website' AND l->>'url' LIKE 'https://%' AND l->>'url' NOT LIKE 'https://www.example.com%' LIMIT 1), ''),
  "navbarlinks" = coalesce((SELECT jsonb_agg(l) FROM jsonb_array_elements("navbarlinks") l WHERE l->>'key' <> 'website'), '[]'::jsonb);
