CREATE TABLE "external_api_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"key" text NOT NULL,
	"response" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"integration_id" integer NOT NULL,
	"ticket_id" integer,
	"message_id" integer,
	"webhook_id" text NOT NULL,
	"event" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_status" integer,
	"last_error" text DEFAULT '' NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prompts" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"prompt" text NOT NULL,
	"voice" text DEFAULT 'texto' NOT NULL,
	"voice_key" text DEFAULT '' NOT NULL,
	"voice_region" text DEFAULT '' NOT NULL,
	"model" text DEFAULT '' NOT NULL,
	"max_tokens" integer DEFAULT 500 NOT NULL,
	"temperature" real DEFAULT 1 NOT NULL,
	"api_key_sealed" text DEFAULT '' NOT NULL,
	"base_url" text DEFAULT '' NOT NULL,
	"queue_id" integer,
	"max_messages" integer DEFAULT 10 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prompts_company_id_id_key" UNIQUE("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "queue_integrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"project_name" text DEFAULT '' NOT NULL,
	"url_n8n" text DEFAULT '' NOT NULL,
	"apikey_sealed" text DEFAULT '' NOT NULL,
	"typebot_slug" text DEFAULT '' NOT NULL,
	"typebot_expires" integer DEFAULT 1 NOT NULL,
	"typebot_delay_message" integer DEFAULT 1000 NOT NULL,
	"typebot_keyword_finish" text DEFAULT '' NOT NULL,
	"typebot_unknown_message" text DEFAULT '' NOT NULL,
	"json_content" text DEFAULT '' NOT NULL,
	"language" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "queue_integrations_company_id_id_key" UNIQUE("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "typebot_sessions" (
	"company_id" integer NOT NULL,
	"ticket_id" integer PRIMARY KEY NOT NULL,
	"integration_id" integer NOT NULL,
	"session_id" text NOT NULL,
	"last_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "queue_options" ADD COLUMN "q_integration_id" integer;--> statement-breakpoint
ALTER TABLE "queue_options" ADD COLUMN "prompt_id" integer;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "integration_id" integer;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "api_token_sealed" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "api_token_hash" text;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "automation_done" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "external_api_requests" ADD CONSTRAINT "external_api_requests_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_deliveries" ADD CONSTRAINT "integration_deliveries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_deliveries" ADD CONSTRAINT "integration_deliveries_company_id_integration_id_queue_integrations_company_id_id_fk" FOREIGN KEY ("company_id","integration_id") REFERENCES "public"."queue_integrations"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompts" ADD CONSTRAINT "prompts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_integrations" ADD CONSTRAINT "queue_integrations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "typebot_sessions" ADD CONSTRAINT "typebot_sessions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "typebot_sessions" ADD CONSTRAINT "typebot_sessions_company_id_ticket_id_tickets_company_id_id_fk" FOREIGN KEY ("company_id","ticket_id") REFERENCES "public"."tickets"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "external_api_requests_key" ON "external_api_requests" USING btree ("company_id","whatsapp_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "integration_deliveries_webhook_id_key" ON "integration_deliveries" USING btree ("webhook_id");--> statement-breakpoint
CREATE INDEX "integration_deliveries_integration_idx" ON "integration_deliveries" USING btree ("company_id","integration_id","id");--> statement-breakpoint
CREATE INDEX "integration_deliveries_open_idx" ON "integration_deliveries" USING btree ("company_id","webhook_id") WHERE "integration_deliveries"."status" in ('pending', 'retrying');--> statement-breakpoint
CREATE INDEX "prompts_company_idx" ON "prompts" USING btree ("company_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "queue_integrations_company_name_key" ON "queue_integrations" USING btree ("company_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapps_api_token_hash_key" ON "whatsapps" USING btree ("api_token_hash");