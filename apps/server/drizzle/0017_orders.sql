CREATE TABLE "goods" (
	"goodsid" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"goodsname" text NOT NULL,
	"coverfileid" text,
	"description" text DEFAULT '' NOT NULL,
	"price" integer NOT NULL,
	"stock" integer NOT NULL,
	"status" integer DEFAULT 0 NOT NULL,
	"grantkind" text DEFAULT 'none' NOT NULL,
	"grantname" text DEFAULT '' NOT NULL,
	"createdat" timestamp with time zone NOT NULL,
	"updatedat" timestamp with time zone NOT NULL,
	CONSTRAINT "goods_price_check" CHECK ("goods"."price" >= 0),
	CONSTRAINT "goods_stock_check" CHECK ("goods"."stock" >= 0),
	CONSTRAINT "goods_status_check" CHECK ("goods"."status" in (0, 1, 2)),
	CONSTRAINT "goods_grant_check" CHECK ("goods"."grantkind" in ('none', 'plan', 'course'))
);
--> statement-breakpoint
CREATE TABLE "order_event" (
	"orderid" text NOT NULL,
	"seq" integer NOT NULL,
	"fromstatus" integer,
	"tostatus" integer NOT NULL,
	"amount" integer DEFAULT 0 NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"by" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "order_event_orderid_seq_pk" PRIMARY KEY("orderid","seq")
);
--> statement-breakpoint
CREATE TABLE "pay_callback" (
	"provider" text NOT NULL,
	"callbackid" text NOT NULL,
	"providerref" text NOT NULL,
	"outcome" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "pay_callback_provider_callbackid_pk" PRIMARY KEY("provider","callbackid")
);
--> statement-breakpoint
CREATE TABLE "pay_setting" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shop_order" (
	"orderid" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"goodsid" text NOT NULL,
	"goodsname" text NOT NULL,
	"quantity" integer NOT NULL,
	"unitprice" integer NOT NULL,
	"amount" integer NOT NULL,
	"refunded" integer DEFAULT 0 NOT NULL,
	"status" integer NOT NULL,
	"buyername" text NOT NULL,
	"buyerphone" text NOT NULL,
	"provider" text NOT NULL,
	"providerref" text,
	"tokenhash" text NOT NULL,
	"createdat" timestamp with time zone NOT NULL,
	"paidat" timestamp with time zone,
	"updatedat" timestamp with time zone NOT NULL,
	CONSTRAINT "shop_order_status_check" CHECK ("shop_order"."status" in (1, 2, 3, 4, 5, 10, 11)),
	CONSTRAINT "shop_order_quantity_check" CHECK ("shop_order"."quantity" between 1 and 99),
	CONSTRAINT "shop_order_amount_check" CHECK ("shop_order"."amount" = "shop_order"."unitprice" * "shop_order"."quantity" and "shop_order"."unitprice" >= 0),
	CONSTRAINT "shop_order_refund_check" CHECK ("shop_order"."refunded" >= 0 and "shop_order"."refunded" <= "shop_order"."amount" and ("shop_order"."status" <> 10 or ("shop_order"."refunded" > 0 and "shop_order"."refunded" < "shop_order"."amount")) and ("shop_order"."status" <> 11 or "shop_order"."refunded" = "shop_order"."amount") and ("shop_order"."status" in (10, 11) or "shop_order"."refunded" = 0)),
	CONSTRAINT "shop_order_paid_check" CHECK ("shop_order"."status" not in (3, 10, 11) or "shop_order"."paidat" is not null)
);
--> statement-breakpoint
ALTER TABLE "goods" ADD CONSTRAINT "goods_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goods" ADD CONSTRAINT "goods_coverfileid_stored_file_fileid_fk" FOREIGN KEY ("coverfileid") REFERENCES "public"."stored_file"("fileid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_event" ADD CONSTRAINT "order_event_orderid_shop_order_orderid_fk" FOREIGN KEY ("orderid") REFERENCES "public"."shop_order"("orderid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_order" ADD CONSTRAINT "shop_order_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_order" ADD CONSTRAINT "shop_order_goodsid_goods_goodsid_fk" FOREIGN KEY ("goodsid") REFERENCES "public"."goods"("goodsid") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "goods_muser_idx" ON "goods" USING btree ("musercode","createdat");--> statement-breakpoint
CREATE INDEX "shop_order_muser_idx" ON "shop_order" USING btree ("musercode","createdat");--> statement-breakpoint
CREATE INDEX "shop_order_goods_idx" ON "shop_order" USING btree ("goodsid");--> statement-breakpoint
CREATE UNIQUE INDEX "shop_order_providerref_idx" ON "shop_order" USING btree ("provider","providerref");--> statement-breakpoint
CREATE UNIQUE INDEX "shop_order_token_idx" ON "shop_order" USING btree ("tokenhash");