CREATE TABLE "cloud_templates" (
	"company_id" integer NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"name" text NOT NULL,
	"language" text NOT NULL,
	"status" text NOT NULL,
	"category" text DEFAULT '' NOT NULL,
	"components" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cloud_templates_whatsapp_id_name_language_pk" PRIMARY KEY("whatsapp_id","name","language")
);
--> statement-breakpoint
CREATE TABLE "cloud_windows" (
	"company_id" integer NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"number" text NOT NULL,
	"last_inbound_at" timestamp with time zone NOT NULL,
	CONSTRAINT "cloud_windows_whatsapp_id_number_pk" PRIMARY KEY("whatsapp_id","number")
);
--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_phone_number_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_business_account_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_access_token_sealed" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_app_secret_sealed" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_verify_token_sealed" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_webhook_key" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_template_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_template_language" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_template_params" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "cloud_templates" ADD CONSTRAINT "cloud_templates_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cloud_templates" ADD CONSTRAINT "cloud_templates_company_id_whatsapp_id_whatsapps_company_id_id_fk" FOREIGN KEY ("company_id","whatsapp_id") REFERENCES "public"."whatsapps"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cloud_windows" ADD CONSTRAINT "cloud_windows_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cloud_windows" ADD CONSTRAINT "cloud_windows_company_id_whatsapp_id_whatsapps_company_id_id_fk" FOREIGN KEY ("company_id","whatsapp_id") REFERENCES "public"."whatsapps"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapps_cloud_webhook_key" ON "whatsapps" USING btree ("cloud_webhook_key");