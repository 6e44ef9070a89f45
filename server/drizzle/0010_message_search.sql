-- Message search (issue 9): the ticket list's search reaches every message of a ticket through two
-- indexes: full-text with Spanish and Portuguese stemming over accent-free text ("reembolsos" finds
-- "Reembolsó"), and trigrams for parts of words. The global search reuses the same functions.
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
-- unaccent() is only STABLE (its dictionary could change); indexes need an IMMUTABLE wrapper that names it.
-- Names are schema-qualified: index builds run with search_path limited to pg_catalog.
CREATE OR REPLACE FUNCTION charla_unaccent(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION charla_search_vector(text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT to_tsvector('spanish'::regconfig, public.charla_unaccent($1)) || to_tsvector('portuguese'::regconfig, public.charla_unaccent($1)) $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION charla_search_query(text) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT websearch_to_tsquery('spanish'::regconfig, public.charla_unaccent($1)) || websearch_to_tsquery('portuguese'::regconfig, public.charla_unaccent($1)) $$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "messages_body_fts_idx" ON "messages" USING gin (public.charla_search_vector("body")) WHERE NOT "is_deleted";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "messages_body_trgm_idx" ON "messages" USING gin (public.charla_unaccent("body") gin_trgm_ops) WHERE NOT "is_deleted";
