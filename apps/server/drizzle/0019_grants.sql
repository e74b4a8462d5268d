CREATE TABLE "order_grant" (
	"orderid" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"kind" text NOT NULL,
	"ref" text NOT NULL,
	"status" text NOT NULL,
	"assesscode" text,
	"reason" jsonb,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "order_grant_kind_check" CHECK ("order_grant"."kind" in ('course', 'plan')),
	CONSTRAINT "order_grant_status_check" CHECK ("order_grant"."status" in ('granted', 'failed', 'revoked')),
	CONSTRAINT "order_grant_code_check" CHECK ("order_grant"."kind" = 'plan' or "order_grant"."assesscode" is null)
);
--> statement-breakpoint
ALTER TABLE "goods" DROP CONSTRAINT "goods_grant_check";--> statement-breakpoint
ALTER TABLE "goods" ADD COLUMN "grantcourseid" text;--> statement-breakpoint
ALTER TABLE "goods" ADD COLUMN "grantplancode" text;--> statement-breakpoint
ALTER TABLE "shop_order" ADD COLUMN "buyergender" text;--> statement-breakpoint
ALTER TABLE "order_grant" ADD CONSTRAINT "order_grant_orderid_shop_order_orderid_fk" FOREIGN KEY ("orderid") REFERENCES "public"."shop_order"("orderid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_grant" ADD CONSTRAINT "order_grant_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_grant_ref_idx" ON "order_grant" USING btree ("musercode","kind","ref");--> statement-breakpoint
ALTER TABLE "goods" DROP COLUMN "grantname";--> statement-breakpoint
-- The old grant was a free-text label that granted nothing: existing goods grant nothing until staff pick a course or plan.
UPDATE "goods" SET "grantkind" = 'none';--> statement-breakpoint
ALTER TABLE "goods" ADD CONSTRAINT "goods_grant_check" CHECK (("goods"."grantkind" = 'none' and "goods"."grantcourseid" is null and "goods"."grantplancode" is null) or ("goods"."grantkind" = 'course' and "goods"."grantcourseid" is not null and "goods"."grantplancode" is null) or ("goods"."grantkind" = 'plan' and "goods"."grantplancode" is not null and "goods"."grantcourseid" is null));