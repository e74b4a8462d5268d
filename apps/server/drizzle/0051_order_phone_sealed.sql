-- A buyer's phone is sealed at rest from now on (kit/crypt, as every other phone number): the start-up step seals
-- the rows already there and fills this blind index, which the order list's exact search by phone looks up.
ALTER TABLE "shop_order" ADD COLUMN "buyerphonehash" text;--> statement-breakpoint
CREATE INDEX "shop_order_phone_idx" ON "shop_order" USING btree ("musercode","buyerphonehash");