CREATE TABLE "norm" (
	"normid" text PRIMARY KEY NOT NULL,
	"formcode" text NOT NULL,
	"name" jsonb NOT NULL,
	"population" jsonb NOT NULL,
	"samplesize" integer NOT NULL,
	"year" integer NOT NULL,
	"source" text NOT NULL,
	"scales" jsonb NOT NULL,
	"change" jsonb,
	"isdefault" integer DEFAULT 0 NOT NULL,
	"builtin" integer DEFAULT 0 NOT NULL,
	"updatedat" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "norm" ADD CONSTRAINT "norm_formcode_form_formcode_fk" FOREIGN KEY ("formcode") REFERENCES "public"."form"("formcode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "norm_form_idx" ON "norm" USING btree ("formcode");--> statement-breakpoint
CREATE UNIQUE INDEX "norm_default_uq" ON "norm" USING btree ("formcode") WHERE "norm"."isdefault" = 1;
