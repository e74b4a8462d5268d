CREATE TABLE "muser" (
	"musercode" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"pwdhash" text NOT NULL,
	"musertype" text NOT NULL,
	"insname" text DEFAULT '' NOT NULL,
	"realname" text DEFAULT '' NOT NULL,
	"phonenumber" text DEFAULT '' NOT NULL,
	"provincecode" text DEFAULT '' NOT NULL,
	"citycode" text DEFAULT '' NOT NULL,
	"districtcode" text DEFAULT '' NOT NULL,
	"regionname" text DEFAULT '' NOT NULL,
	"categorycode" text DEFAULT '' NOT NULL,
	"categorylevel" integer DEFAULT 0 NOT NULL,
	"categorycode0" text DEFAULT '' NOT NULL,
	"categorycode1" text DEFAULT '' NOT NULL,
	"categorycode2" text DEFAULT '' NOT NULL,
	"categorycode3" text DEFAULT '' NOT NULL,
	"categorycode4" text DEFAULT '' NOT NULL,
	"categorycode5" text DEFAULT '' NOT NULL,
	"parentcode" text,
	"qrcodeurl" text DEFAULT '' NOT NULL,
	"enabled" integer DEFAULT 1 NOT NULL,
	"loginasmarker" text DEFAULT '' NOT NULL,
	"appdialogexempt" boolean DEFAULT false NOT NULL,
	"navbarlinks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"issuper" boolean DEFAULT false NOT NULL,
	"createdat" timestamp with time zone DEFAULT now() NOT NULL,
	"updatedat" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "muser_username_unique" UNIQUE("username")
);
--> statement-breakpoint
CREATE TABLE "muser_permission" (
	"musercode" text NOT NULL,
	"code" text NOT NULL,
	CONSTRAINT "muser_permission_musercode_code_pk" PRIMARY KEY("musercode","code")
);
--> statement-breakpoint
CREATE TABLE "dept" (
	"deptid" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"parentid" text,
	"deptname" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"leader" text DEFAULT '' NOT NULL,
	"phonenumber" text DEFAULT '' NOT NULL,
	"enabled" integer DEFAULT 1 NOT NULL,
	"createdat" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "menu" (
	"code" text PRIMARY KEY NOT NULL,
	"parentcode" text,
	"path" text NOT NULL,
	"name" text NOT NULL,
	"titlezh" text NOT NULL,
	"titleen" text NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "role" (
	"roleid" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"rolename" text NOT NULL,
	"rolekey" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"enabled" integer DEFAULT 1 NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"createdat" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "role_menu" (
	"roleid" text NOT NULL,
	"code" text NOT NULL,
	CONSTRAINT "role_menu_roleid_code_pk" PRIMARY KEY("roleid","code")
);
--> statement-breakpoint
CREATE TABLE "sysuser" (
	"userid" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"sysusername" text NOT NULL,
	"pwdhash" text NOT NULL,
	"realname" text DEFAULT '' NOT NULL,
	"phonenumber" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"deptid" text,
	"enabled" integer DEFAULT 1 NOT NULL,
	"createdat" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sysuser_sysusername_unique" UNIQUE("sysusername")
);
--> statement-breakpoint
CREATE TABLE "sysuser_role" (
	"userid" text NOT NULL,
	"roleid" text NOT NULL,
	CONSTRAINT "sysuser_role_userid_roleid_pk" PRIMARY KEY("userid","roleid")
);
--> statement-breakpoint
CREATE TABLE "login_attempt" (
	"username" text NOT NULL,
	"ip" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"ok" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_lock" (
	"username" text PRIMARY KEY NOT NULL,
	"lockeduntil" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session" (
	"tokenhash" text PRIMARY KEY NOT NULL,
	"musercode" text NOT NULL,
	"userid" text,
	"actor" text,
	"ip" text DEFAULT '' NOT NULL,
	"createdat" timestamp with time zone NOT NULL,
	"lastseenat" timestamp with time zone NOT NULL,
	"revokedat" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone NOT NULL,
	"musercode" text DEFAULT '' NOT NULL,
	"userid" text,
	"actor" text,
	"action" text NOT NULL,
	"result" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"requestid" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "muser_permission" ADD CONSTRAINT "muser_permission_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dept" ADD CONSTRAINT "dept_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role" ADD CONSTRAINT "role_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_menu" ADD CONSTRAINT "role_menu_roleid_role_roleid_fk" FOREIGN KEY ("roleid") REFERENCES "public"."role"("roleid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sysuser" ADD CONSTRAINT "sysuser_musercode_muser_musercode_fk" FOREIGN KEY ("musercode") REFERENCES "public"."muser"("musercode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sysuser" ADD CONSTRAINT "sysuser_deptid_dept_deptid_fk" FOREIGN KEY ("deptid") REFERENCES "public"."dept"("deptid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sysuser_role" ADD CONSTRAINT "sysuser_role_userid_sysuser_userid_fk" FOREIGN KEY ("userid") REFERENCES "public"."sysuser"("userid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sysuser_role" ADD CONSTRAINT "sysuser_role_roleid_role_roleid_fk" FOREIGN KEY ("roleid") REFERENCES "public"."role"("roleid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "muser_parent_idx" ON "muser" USING btree ("parentcode");--> statement-breakpoint
CREATE INDEX "dept_muser_idx" ON "dept" USING btree ("musercode");--> statement-breakpoint
CREATE INDEX "role_muser_idx" ON "role" USING btree ("musercode");--> statement-breakpoint
CREATE INDEX "sysuser_muser_idx" ON "sysuser" USING btree ("musercode");--> statement-breakpoint
CREATE INDEX "login_attempt_user_idx" ON "login_attempt" USING btree ("username","at");--> statement-breakpoint
CREATE INDEX "login_attempt_ip_idx" ON "login_attempt" USING btree ("ip","at");--> statement-breakpoint
CREATE INDEX "session_muser_idx" ON "session" USING btree ("musercode");--> statement-breakpoint
CREATE INDEX "session_user_idx" ON "session" USING btree ("userid");--> statement-breakpoint
CREATE INDEX "audit_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_muser_idx" ON "audit_log" USING btree ("musercode","at");