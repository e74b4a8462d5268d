ALTER TABLE "shop_order" ADD COLUMN "grantkind" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "shop_order" ADD COLUMN "grantref" text;--> statement-breakpoint
ALTER TABLE "shop_order" ADD COLUMN "expiresat" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "shop_order_grant_idx" ON "shop_order" USING btree ("musercode","grantkind","grantref");--> statement-breakpoint
CREATE INDEX "shop_order_unpaid_idx" ON "shop_order" USING btree ("expiresat") WHERE "shop_order"."status" in (1, 2);--> statement-breakpoint
ALTER TABLE "shop_order" ADD CONSTRAINT "shop_order_grant_check" CHECK (("shop_order"."grantkind" = 'none' and "shop_order"."grantref" is null) or ("shop_order"."grantkind" in ('course', 'plan') and "shop_order"."grantref" is not null));--> statement-breakpoint
-- Issue 27 item 7: orders record what they grant. An unpaid order takes what its goods grant now
-- (what it would have been given at payment); one already fulfilled takes its grant's record.
UPDATE "shop_order" o SET "grantkind" = g."grantkind", "grantref" = coalesce(g."grantcourseid", g."grantplancode") FROM "goods" g WHERE g."goodsid" = o."goodsid" AND o."status" IN (1, 2);--> statement-breakpoint
UPDATE "shop_order" o SET "grantkind" = g."kind", "grantref" = g."ref" FROM "order_grant" g WHERE g."orderid" = o."orderid";--> statement-breakpoint
-- Item 8: an order made before expiry existed expires as a new one would.
UPDATE "shop_order" SET "expiresat" = "createdat" + interval '30 minutes';--> statement-breakpoint
-- Item 11: a lesson's media are a use of their own (served only by signed URLs), apart from the course's cover.
UPDATE "file_use" u SET "kind" = 'lesson' WHERE u."kind" = 'course' AND EXISTS (SELECT 1 FROM "lesson" l WHERE l."courseid" = u."ownerid" AND l."videofileid" = u."fileid");
