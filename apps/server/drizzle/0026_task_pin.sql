ALTER TABLE "task" ADD COLUMN "pinrequired" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "task_person" ADD COLUMN "pinhash" text;--> statement-breakpoint
ALTER TABLE "task_person" ADD COLUMN "pinfailures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "task" ADD CONSTRAINT "task_pinrequired_check" CHECK ("task"."pinrequired" in (0, 1));