CREATE TABLE "ticket_counts" (
	"company_id" integer NOT NULL,
	"status" text NOT NULL,
	"queue_id" integer DEFAULT 0 NOT NULL,
	"user_id" integer DEFAULT 0 NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "ticket_counts_pkey" PRIMARY KEY("company_id","status","queue_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "ticket_counts" ADD CONSTRAINT "ticket_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The counts follow every change of tickets in the statement that makes it (insert, update, delete,
-- and the "set null" of a deleted queue or user). Statement triggers see all the rows a statement
-- changed at once: one upsert per (status, queue, assignee) touched, in key order so two statements
-- moving tickets in opposite directions lock the counters in the same order. An update that changes
-- none of the three (a new last message, an unread counter) nets to zero and writes nothing.
CREATE FUNCTION "ticket_counts_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "ticket_counts" AS c ("company_id", "status", "queue_id", "user_id", "n")
  SELECT "company_id", "status", coalesce("queue_id", 0), coalesce("user_id", 0), count(*)::int
  FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT ("company_id", "status", "queue_id", "user_id") DO UPDATE SET "n" = c."n" + excluded."n";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "ticket_counts_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "ticket_counts" AS c ("company_id", "status", "queue_id", "user_id", "n")
  SELECT "company_id", "status", "queue_id", "user_id", sum(k)::int FROM (
    SELECT "company_id", "status", coalesce("queue_id", 0) AS "queue_id", coalesce("user_id", 0) AS "user_id", 1 AS k FROM new_rows
    UNION ALL
    SELECT "company_id", "status", coalesce("queue_id", 0), coalesce("user_id", 0), -1 FROM old_rows
  ) d
  GROUP BY 1, 2, 3, 4 HAVING sum(k) <> 0 ORDER BY 1, 2, 3, 4
  ON CONFLICT ("company_id", "status", "queue_id", "user_id") DO UPDATE SET "n" = c."n" + excluded."n";
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A delete only lowers counters that exist: when a company is deleted its counters may already be
-- gone by the time its tickets are, and an insert there would name a company that no longer exists.
CREATE FUNCTION "ticket_counts_on_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "ticket_counts" c SET "n" = c."n" - d.k
  FROM (
    SELECT "company_id", "status", coalesce("queue_id", 0) AS "queue_id", coalesce("user_id", 0) AS "user_id", count(*)::int AS k
    FROM old_rows GROUP BY 1, 2, 3, 4
  ) d
  WHERE c."company_id" = d."company_id" AND c."status" = d."status" AND c."queue_id" = d."queue_id" AND c."user_id" = d."user_id";
  RETURN NULL;
END $$;
--> statement-breakpoint
-- no ticket may change between the first count and the triggers taking over
LOCK TABLE "tickets" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
CREATE TRIGGER "ticket_counts_insert" AFTER INSERT ON "tickets" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "ticket_counts_on_insert"();
--> statement-breakpoint
CREATE TRIGGER "ticket_counts_update" AFTER UPDATE ON "tickets" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "ticket_counts_on_update"();
--> statement-breakpoint
CREATE TRIGGER "ticket_counts_delete" AFTER DELETE ON "tickets" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "ticket_counts_on_delete"();
--> statement-breakpoint
INSERT INTO "ticket_counts" ("company_id", "status", "queue_id", "user_id", "n")
SELECT "company_id", "status", coalesce("queue_id", 0), coalesce("user_id", 0), count(*)::int
FROM "tickets" GROUP BY 1, 2, 3, 4;
