-- Global search, advanced mode: words spelled alike ("reembolzo" finds "reembolso"). Migration 0011
-- keeps trigrams away from message bodies (30 ms to 300 ms a common word over a million messages);
-- the trigrams go on each company's vocabulary instead: the distinct words and stems of its messages
-- (the lexemes of messages.search), a table thousands of times smaller than the messages. A typed word
-- finds its look-alikes here, and those are looked up in messages_search_idx like any typed word.
-- Not in the Drizzle schema: only the search module reads it, and only the triggers below write it.
CREATE TABLE "search_words" (
  "company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE CASCADE,
  "word" text NOT NULL,
  PRIMARY KEY ("company_id", "word")
);--> statement-breakpoint
CREATE INDEX "search_words_word_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
-- once a statement (a transition table), not once a row: the ingest writes one message a statement,
-- and a bulk load many, each new word once
CREATE OR REPLACE FUNCTION charla_search_words_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO public.search_words (company_id, word)
  SELECT DISTINCT n.company_id, w FROM new_rows n, unnest(tsvector_to_array(n.search)) AS w
  WHERE length(w) BETWEEN 3 AND 40
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION charla_search_words_edit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO public.search_words (company_id, word)
  SELECT NEW.company_id, w FROM unnest(tsvector_to_array(NEW.search)) AS w
  WHERE length(w) BETWEEN 3 AND 40
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "messages_search_words_insert" AFTER INSERT ON "messages"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION charla_search_words_add();--> statement-breakpoint
-- a column list cannot go with a transition table; per row, and only when the text changed (acks and
-- reads update messages all the time and never fire it)
CREATE TRIGGER "messages_search_words_edit" AFTER UPDATE OF "body" ON "messages"
  FOR EACH ROW WHEN (OLD."body" IS DISTINCT FROM NEW."body") EXECUTE FUNCTION charla_search_words_edit();--> statement-breakpoint
INSERT INTO "search_words" ("company_id", "word")
  SELECT DISTINCT m."company_id", w FROM "messages" m, unnest(tsvector_to_array(m."search")) AS w
  WHERE length(w) BETWEEN 3 AND 40
  ON CONFLICT DO NOTHING;--> statement-breakpoint
-- contact names accent-free ("Jose" finds "José"), for both modes: a part of the name, or a name alike
CREATE INDEX "contacts_name_unaccent_trgm_idx" ON "contacts" USING gin (lower(public.charla_unaccent("name")) gin_trgm_ops);
