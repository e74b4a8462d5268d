CREATE TABLE "article" (
	"articleid" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"title" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"coverfileid" text,
	"content" text DEFAULT '' NOT NULL,
	"published" integer DEFAULT 0 NOT NULL,
	"publishedat" timestamp with time zone,
	"createdby" text NOT NULL,
	"createdat" timestamp with time zone NOT NULL,
	"updatedat" timestamp with time zone NOT NULL,
	CONSTRAINT "article_published_check" CHECK ("article"."published" in (0, 1) and ("article"."published" = 0 or "article"."publishedat" is not null))
);
--> statement-breakpoint
ALTER TABLE "article" ADD CONSTRAINT "article_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article" ADD CONSTRAINT "article_coverfileid_stored_file_fileid_fk" FOREIGN KEY ("coverfileid") REFERENCES "public"."stored_file"("fileid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "article_muser_idx" ON "article" USING btree ("musercode","createdat");