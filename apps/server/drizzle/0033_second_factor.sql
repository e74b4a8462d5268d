CREATE TABLE "recovery_code" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"codehash" text NOT NULL,
	"usedat" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "second_factor" (
	"subject" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"userid" text,
	"secret" text NOT NULL,
	"createdat" timestamp with time zone NOT NULL,
	"confirmedat" timestamp with time zone,
	"laststep" bigint
);
--> statement-breakpoint
CREATE TABLE "second_factor_policy" (
	"musercode" text PRIMARY KEY NOT NULL,
	"required" boolean NOT NULL,
	"everyone" boolean DEFAULT false NOT NULL,
	"updatedat" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_in_challenge" (
	"challengehash" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"username" text NOT NULL,
	"musercode" text NOT NULL,
	"userid" text,
	"createdat" timestamp with time zone NOT NULL,
	"expiresat" timestamp with time zone NOT NULL,
	"usedat" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "login_attempt" ADD COLUMN "partial" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "session" ADD COLUMN "secondfactor" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "recovery_code" ADD CONSTRAINT "recovery_code_subject_second_factor_subject_fk" FOREIGN KEY ("subject") REFERENCES "public"."second_factor"("subject") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recovery_code_subject_idx" ON "recovery_code" USING btree ("subject");--> statement-breakpoint
CREATE INDEX "sign_in_challenge_expires_idx" ON "sign_in_challenge" USING btree ("expiresat");--> statement-breakpoint
-- A second factor goes with its account or staff user (hand-added: the tables belong to other domains).
ALTER TABLE "second_factor" ADD CONSTRAINT "second_factor_muser_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade;--> statement-breakpoint
ALTER TABLE "second_factor" ADD CONSTRAINT "second_factor_sysuser_fk" FOREIGN KEY ("userid") REFERENCES "public"."sysuser"("userid") ON DELETE cascade;
