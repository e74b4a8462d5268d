CREATE TABLE "cuser" (
	"cusercode" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"appid" text NOT NULL,
	"realname" text NOT NULL,
	"gender" text NOT NULL,
	"birthdate" date,
	"phonenumber" text,
	"idcard" text,
	"archive" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"archiveformcode" text,
	"archiveversion" integer,
	"source" text DEFAULT 'console' NOT NULL,
	"importid" text,
	"createdat" timestamp with time zone DEFAULT now() NOT NULL,
	"updatedat" timestamp with time zone DEFAULT now() NOT NULL,
	"deletedat" timestamp with time zone,
	"deletedby" text,
	CONSTRAINT "cuser_gender_check" CHECK ("cuser"."gender" in ('01', '02')),
	CONSTRAINT "cuser_source_check" CHECK ("cuser"."source" in ('console', 'import', 'qrcode'))
);
--> statement-breakpoint
ALTER TABLE "cuser" ADD CONSTRAINT "cuser_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cuser" ADD CONSTRAINT "cuser_appid_app_appid_fk" FOREIGN KEY ("appid") REFERENCES "public"."app"("appid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cuser_idcard_idx" ON "cuser" USING btree ("musercode","idcard") WHERE "cuser"."idcard" is not null and "cuser"."deletedat" is null;--> statement-breakpoint
CREATE INDEX "cuser_muser_app_idx" ON "cuser" USING btree ("musercode","appid","createdat");