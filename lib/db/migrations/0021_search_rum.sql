-- Ranked search without reading every match (decision 025): a RUM index on the
-- search document answers "the best N matches" from the index itself, where
-- GIN has to fetch and rank every matching row. RUM is an extension
-- (postgresql-15-rum) that PGlite and many hosted servers do not have, so the
-- index is made only where the extension can be created; search keeps its
-- GIN path otherwise. The function is also called at every PostgreSQL start
-- (lib/db/open.ts), so installing the package later and restarting is enough.
CREATE OR REPLACE FUNCTION chrysalis_ensure_search_rum_index() RETURNS boolean
LANGUAGE plpgsql
AS $$
BEGIN
  IF to_regclass('videos_search_rum_idx') IS NOT NULL THEN
    RETURN true;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'rum') THEN
    RETURN false;
  END IF;
  BEGIN
    CREATE EXTENSION IF NOT EXISTS rum;
  EXCEPTION WHEN insufficient_privilege THEN
    -- Not a superuser (and rum is not a trusted extension): a DBA can run CREATE EXTENSION rum; the next start builds the index.
    RAISE NOTICE 'rum is available but this role may not create it; search uses its GIN index';
    RETURN false;
  END;
  CREATE INDEX videos_search_rum_idx ON videos USING rum (search_vector rum_tsvector_ops)
    WHERE processing_state = 'ready' AND moderation_status = 'approved' AND NOT owner_banned;
  RETURN true;
END;
$$;
--> statement-breakpoint
SELECT chrysalis_ensure_search_rum_index();
