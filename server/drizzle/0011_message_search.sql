-- Message search (issue 9): the ticket list's search reaches every message of a ticket, and the global
-- search reuses the same pieces. Full-text with Spanish and Portuguese stemming over accent-free text
-- ("reembolsos" finds "Reembolsó"), and the start of a word as typed ("reemb", "447"), stored beside
-- each message so that checking a message reads a vector instead of making one. One GIN index serves
-- both. Parts inside words ("mbols") are not looked up in messages: a trigram index over a million
-- bodies spends 30 ms to 300 ms intersecting the posting lists of a common word's trigrams before it
-- finds anything (measured on the issue-9 workload), more than the whole search may take.
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
-- unaccent() is only STABLE (its dictionary could change); a stored column and an index need an
-- IMMUTABLE wrapper that names it. Names are schema-qualified: index builds run with search_path
-- limited to pg_catalog.
CREATE OR REPLACE FUNCTION charla_unaccent(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;--> statement-breakpoint
-- stems in both languages, and the words as written (accent-free) for the beginnings of words
CREATE OR REPLACE FUNCTION charla_search_vector(text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT to_tsvector('spanish'::regconfig, public.charla_unaccent($1))
    || to_tsvector('portuguese'::regconfig, public.charla_unaccent($1))
    || to_tsvector('simple'::regconfig, public.charla_unaccent($1)) $$;--> statement-breakpoint
-- what was typed, as stems in either language or as the beginnings of every typed word
CREATE OR REPLACE FUNCTION charla_search_query(text) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT websearch_to_tsquery('spanish'::regconfig, public.charla_unaccent($1))
    || websearch_to_tsquery('portuguese'::regconfig, public.charla_unaccent($1))
    || to_tsquery('simple'::regconfig, coalesce(array_to_string(array(
         SELECT quote_literal(w) || ':*' FROM regexp_split_to_table(lower(public.charla_unaccent($1)), '[^[:alnum:]]+') AS w
         WHERE w <> ''), ' & '), '')) $$;--> statement-breakpoint
-- Not in the Drizzle schema on purpose: a column every `select *` and `returning` would carry for nothing.
ALTER TABLE "messages" ADD COLUMN "search" tsvector GENERATED ALWAYS AS (public.charla_search_vector("body")) STORED;--> statement-breakpoint
CREATE INDEX "messages_search_idx" ON "messages" USING gin ("search") WHERE NOT "is_deleted";
;--> statement-breakpoint
-- The last message is one of the messages: its own trigram index only slowed every ticket update.
DROP INDEX IF EXISTS "tickets_last_message_trgm_idx";