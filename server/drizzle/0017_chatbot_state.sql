CREATE TABLE "user_ratings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"user_id" integer,
	"rate" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "queue_option_id" integer;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "bot_list_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "bot_list_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "out_of_hours_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "awaiting_rating" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "rating_asks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_ratings" ADD CONSTRAINT "user_ratings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_ratings" ADD CONSTRAINT "user_ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_ratings" ADD CONSTRAINT "user_ratings_company_id_ticket_id_tickets_company_id_id_fk" FOREIGN KEY ("company_id","ticket_id") REFERENCES "public"."tickets"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_ratings_company_user_idx" ON "user_ratings" USING btree ("company_id","user_id");--> statement-breakpoint
CREATE INDEX "user_ratings_company_ticket_idx" ON "user_ratings" USING btree ("company_id","ticket_id");--> statement-breakpoint
CREATE INDEX "tickets_company_awaiting_rating_idx" ON "tickets" USING btree ("company_id","contact_id","whatsapp_id") WHERE "tickets"."awaiting_rating";