CREATE TABLE "file_setting" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "file_use" (
	"fileid" text NOT NULL,
	"kind" text NOT NULL,
	"ownerid" text NOT NULL,
	CONSTRAINT "file_use_fileid_kind_ownerid_pk" PRIMARY KEY("fileid","kind","ownerid")
);
--> statement-breakpoint
CREATE TABLE "stored_file" (
	"fileid" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"use" text NOT NULL,
	"filename" text NOT NULL,
	"key" text NOT NULL,
	"contenttype" text NOT NULL,
	"size" bigint NOT NULL,
	"status" text NOT NULL,
	"createdby" text NOT NULL,
	"createdat" timestamp with time zone NOT NULL,
	CONSTRAINT "stored_file_use_check" CHECK ("stored_file"."use" in ('image', 'audio', 'video', 'pdf', 'excel')),
	CONSTRAINT "stored_file_status_check" CHECK ("stored_file"."status" in ('pending', 'ready')),
	CONSTRAINT "stored_file_size_check" CHECK ("stored_file"."size" > 0)
);
--> statement-breakpoint
ALTER TABLE "file_use" ADD CONSTRAINT "file_use_fileid_stored_file_fileid_fk" FOREIGN KEY ("fileid") REFERENCES "public"."stored_file"("fileid") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_file" ADD CONSTRAINT "stored_file_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_use_owner_idx" ON "file_use" USING btree ("kind","ownerid");--> statement-breakpoint
CREATE UNIQUE INDEX "stored_file_key_idx" ON "stored_file" USING btree ("key");--> statement-breakpoint
CREATE INDEX "stored_file_muser_idx" ON "stored_file" USING btree ("musercode","createdat");