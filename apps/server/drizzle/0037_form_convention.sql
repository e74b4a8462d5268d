CREATE TABLE "form_convention" (
	"musercode" text NOT NULL,
	"formcode" text NOT NULL,
	"code" text NOT NULL,
	"updatedat" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "form_convention_musercode_formcode_pk" PRIMARY KEY("musercode","formcode")
);
--> statement-breakpoint
ALTER TABLE "form_convention" ADD CONSTRAINT "form_convention_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;