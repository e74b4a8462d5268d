ALTER TABLE "dept" ADD COLUMN "email" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "dept" ADD COLUMN "updatedat" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "role" ADD COLUMN "updatedat" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "sysuser" ADD COLUMN "sex" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "sysuser" ADD COLUMN "remark" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "sysuser" ADD COLUMN "updatedat" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "dept_parent_idx" ON "dept" USING btree ("parentid");--> statement-breakpoint
CREATE INDEX "sysuser_dept_idx" ON "sysuser" USING btree ("deptid");