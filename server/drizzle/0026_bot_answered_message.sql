ALTER TABLE "tickets" ADD COLUMN "bot_answered_message_id" integer;--> statement-breakpoint
-- What was received before this column existed was answered (or let be) by the bot as it came: the
-- bot-turns sweep (jobs/bot-turns.ts) looks back an hour for turns never taken, and without this it would
-- take every live ticket's recent messages again after the upgrade (menus and greetings sent twice).
UPDATE "tickets" t SET "bot_answered_message_id" = m.id
  FROM (
    SELECT "ticket_id", max("id") AS id FROM "messages"
     WHERE NOT "from_me" AND "created_at" >= now() - interval '2 hours'
     GROUP BY "ticket_id"
  ) m
 WHERE m."ticket_id" = t."id" AND t."status" IN ('pending', 'open');
