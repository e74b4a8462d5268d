CREATE TABLE "muser_entry" (
	"musercode" text PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"logourl" text DEFAULT '' NOT NULL,
	"welcome" text DEFAULT '' NOT NULL,
	"consent" text DEFAULT '' NOT NULL,
	"appids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"stagecodes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"showresult" integer DEFAULT 0 NOT NULL,
	"hotline" text DEFAULT '' NOT NULL,
	"createdat" timestamp with time zone DEFAULT now() NOT NULL,
	"updatedat" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "muser_entry" ADD CONSTRAINT "muser_entry_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "muser_entry_token_idx" ON "muser_entry" USING btree ("token");