CREATE TABLE "link_entry" (
	"cusercode" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"linkhash" text NOT NULL,
	"addrhash" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"undoneat" timestamp with time zone,
	"undoneby" text
);
--> statement-breakpoint
ALTER TABLE "link_entry" ADD CONSTRAINT "link_entry_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "link_entry_muser_idx" ON "link_entry" USING btree ("musercode","at");--> statement-breakpoint
CREATE INDEX "link_entry_link_idx" ON "link_entry" USING btree ("linkhash","at");--> statement-breakpoint
CREATE INDEX "link_entry_addr_idx" ON "link_entry" USING btree ("addrhash","at");