-- Acks on WhatsApp's own scale (docs/acks.md): -1 failed, 0 not yet handed to WhatsApp, 1 pending,
-- 2 server, 3 delivered, 4 read, 5 played. Rows written before this stored one less for the
-- messages Charla sent (0 pending, 1 server, 2 delivered, 3 read, 4 played): they move up by one.
-- Received messages carry no receipts of ours and keep 0.
ALTER TABLE "messages" ADD COLUMN "ack_error" text;--> statement-breakpoint
UPDATE "messages" SET "ack" = "ack" + 1 WHERE "from_me" = true AND "ack" BETWEEN 0 AND 4;
