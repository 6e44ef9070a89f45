CREATE TABLE "queue_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"queue_id" integer NOT NULL,
	"parent_id" integer,
	"title" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"option" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "queue_options_company_queue_id_key" UNIQUE("company_id","queue_id","id")
);
--> statement-breakpoint
ALTER TABLE "queues" ALTER COLUMN "order_queue" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "queues" ALTER COLUMN "order_queue" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "schedules" jsonb DEFAULT '[{"weekday":"Lunes","weekdayEn":"monday","startTime":"08:00","endTime":"18:00"},{"weekday":"Martes","weekdayEn":"tuesday","startTime":"08:00","endTime":"18:00"},{"weekday":"Miércoles","weekdayEn":"wednesday","startTime":"08:00","endTime":"18:00"},{"weekday":"Jueves","weekdayEn":"thursday","startTime":"08:00","endTime":"18:00"},{"weekday":"Viernes","weekdayEn":"friday","startTime":"08:00","endTime":"18:00"},{"weekday":"Sábado","weekdayEn":"saturday","startTime":"08:00","endTime":"12:00"},{"weekday":"Domingo","weekdayEn":"sunday","startTime":"00:00","endTime":"00:00"}]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "time_zone" text DEFAULT 'America/Noronha' NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "complation_message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "out_of_hours_message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "rating_message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "time_zone" text DEFAULT 'America/Noronha' NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "schedules" jsonb DEFAULT '[{"weekday":"Lunes","weekdayEn":"monday","startTime":"08:00","endTime":"18:00"},{"weekday":"Martes","weekdayEn":"tuesday","startTime":"08:00","endTime":"18:00"},{"weekday":"Miércoles","weekdayEn":"wednesday","startTime":"08:00","endTime":"18:00"},{"weekday":"Jueves","weekdayEn":"thursday","startTime":"08:00","endTime":"18:00"},{"weekday":"Viernes","weekdayEn":"friday","startTime":"08:00","endTime":"18:00"},{"weekday":"Sábado","weekdayEn":"saturday","startTime":"08:00","endTime":"12:00"},{"weekday":"Domingo","weekdayEn":"sunday","startTime":"00:00","endTime":"00:00"}]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "prompt_id" integer;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "integration_id" integer;--> statement-breakpoint
ALTER TABLE "queue_options" ADD CONSTRAINT "queue_options_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_options" ADD CONSTRAINT "queue_options_company_id_queue_id_queues_company_id_id_fk" FOREIGN KEY ("company_id","queue_id") REFERENCES "public"."queues"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_options" ADD CONSTRAINT "queue_options_parent_fk" FOREIGN KEY ("company_id","queue_id","parent_id") REFERENCES "public"."queue_options"("company_id","queue_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "queue_options_company_queue_parent_idx" ON "queue_options" USING btree ("company_id","queue_id","parent_id");