CREATE TABLE "app" (
	"appid" text PRIMARY KEY NOT NULL,
	"appname" text NOT NULL,
	"appnameen" text DEFAULT '' NOT NULL,
	"scenecode" text DEFAULT '' NOT NULL,
	"iconurl" text DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "muser_app" (
	"musercode" text NOT NULL,
	"appid" text NOT NULL,
	CONSTRAINT "muser_app_musercode_appid_pk" PRIMARY KEY("musercode","appid")
);
--> statement-breakpoint
ALTER TABLE "muser_app" ADD CONSTRAINT "muser_app_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "muser_app" ADD CONSTRAINT "muser_app_appid_app_appid_fk" FOREIGN KEY ("appid") REFERENCES "public"."app"("appid") ON DELETE no action ON UPDATE no action;