CREATE TABLE "person_retention" (
	"musercode" text PRIMARY KEY NOT NULL,
	"months" integer NOT NULL,
	"updatedat" timestamp with time zone NOT NULL,
	CONSTRAINT "person_retention_months_check" CHECK ("person_retention"."months" between 0 and 600)
);
--> statement-breakpoint
ALTER TABLE "cuser" ADD COLUMN "anonymisedat" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cuser" ADD COLUMN "anonymisedby" text;--> statement-breakpoint
ALTER TABLE "person_retention" ADD CONSTRAINT "person_retention_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;