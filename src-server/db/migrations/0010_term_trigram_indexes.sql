-- Trigram indexes for the term searches (LIKE '%term%'). pg_trgm ships with PostgreSQL's contrib and with PGlite
-- (@electric-sql/pglite/contrib/pg_trgm, loaded by openDatabase).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "projects_search_key_trgm_idx" ON "projects" USING gin ("search_key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "targets_term_trgm_idx" ON "targets" USING gin (lower("action_code") gin_trgm_ops,lower("population_sample") gin_trgm_ops,lower("population_category") gin_trgm_ops);--> statement-breakpoint
-- Statistics of the new index expressions: without them the planner guesses the term's selectivity and may walk
-- the whole status index for a rare term (4 s at 1,000,000 targets instead of 20 ms). Creating an index does not
-- gather them, and autovacuum would wait for 10 % of the rows to change.
ANALYZE targets;--> statement-breakpoint
ANALYZE projects;
