CREATE TABLE "inventory_consumption" (
	"category" text NOT NULL,
	"month" date NOT NULL,
	"views" numeric NOT NULL,
	CONSTRAINT "inventory_consumption_category_month_pk" PRIMARY KEY("category","month")
);
--> statement-breakpoint
CREATE TABLE "inventory_unplanned" (
	"category" text PRIMARY KEY NOT NULL,
	"views" bigint NOT NULL
);
--> statement-breakpoint
-- The inventory's consumption (docs/inventory.md), kept by triggers on the targets instead of computed at each read.
-- A target books views when goal_views > 0, its status is not '7. annulé' and it names a population category;
-- with both dates it books each month its share of them: goal views × its days in the month / its days (UTC days
-- from its start day to its end day, both included; an end before the start books the start day). These are the
-- rules the reads applied to the targets until now (tests/server/inventory-consumption.test.ts keeps that
-- computation as the reference). Shares are numeric, so that sums kept by additions and subtractions stay exactly
-- the sums computed from scratch.
CREATE FUNCTION inventory_target_months(start_date bigint, end_date bigint, goal_views bigint)
RETURNS TABLE (month date, views numeric) LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT m::date, goal_views::numeric
      * (least(b.e, (extract(epoch FROM m + interval '1 month') / 86400)::int - 1) - greatest(b.s, (extract(epoch FROM m) / 86400)::int) + 1)
      / (b.e - b.s + 1)
  FROM (SELECT (start_date / 86400)::int AS s, (greatest(start_date, end_date) / 86400)::int AS e) b,
    generate_series(date_trunc('month', timestamp 'epoch' + b.s * interval '1 day'), timestamp 'epoch' + b.e * interval '1 day', interval '1 month') m
$$;
--> statement-breakpoint
-- Applies what one statement did to the targets: the rows it wrote count +1, those it replaced or deleted -1
-- (its transition tables). Statement-level, so that a bulk insert (a paste, the demo) is one aggregate, not one
-- upsert per row; static SQL, so that plpgsql keeps its plan (a single-row update costs about a millisecond more,
-- not several). The upserts add to the row another transaction may be changing (safe under READ COMMITTED: ON
-- CONFLICT DO UPDATE waits for it, then adds to its result), in key order so that two statements lock shared
-- rows in the same order; sums that do not change (an update of a comment) write nothing. Inserts and deletes
-- name their one transition table changed_targets; updates have both.
CREATE FUNCTION inventory_follow_target_writes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  direction int := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  WITH changed AS (SELECT population_category, status, goal_views, start_date, end_date, direction AS sign FROM changed_targets),
  booking AS (
    SELECT lower(population_category) AS category, start_date, end_date, goal_views, sign FROM changed
    WHERE goal_views > 0 AND status <> '7. annulé' AND population_category IS NOT NULL),
  planned AS (
    INSERT INTO inventory_consumption AS kept (category, month, views)
    SELECT b.category, s.month, sum(b.sign * s.views) FROM booking b
      CROSS JOIN LATERAL inventory_target_months(b.start_date, b.end_date, b.goal_views) s
    WHERE b.start_date IS NOT NULL AND b.end_date IS NOT NULL
    GROUP BY 1, 2 HAVING sum(b.sign * s.views) <> 0 ORDER BY 1, 2
    ON CONFLICT (category, month) DO UPDATE SET views = kept.views + excluded.views)
  INSERT INTO inventory_unplanned AS kept (category, views)
  SELECT b.category, sum(b.sign * b.goal_views) FROM booking b
  WHERE b.start_date IS NULL OR b.end_date IS NULL
  GROUP BY 1 HAVING sum(b.sign * b.goal_views) <> 0 ORDER BY 1
  ON CONFLICT (category) DO UPDATE SET views = kept.views + excluded.views;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION inventory_follow_target_updates() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH changed AS (
    SELECT population_category, status, goal_views, start_date, end_date, 1 AS sign FROM new_targets
    UNION ALL SELECT population_category, status, goal_views, start_date, end_date, -1 FROM old_targets),
  booking AS (
    SELECT lower(population_category) AS category, start_date, end_date, goal_views, sign FROM changed
    WHERE goal_views > 0 AND status <> '7. annulé' AND population_category IS NOT NULL),
  planned AS (
    INSERT INTO inventory_consumption AS kept (category, month, views)
    SELECT b.category, s.month, sum(b.sign * s.views) FROM booking b
      CROSS JOIN LATERAL inventory_target_months(b.start_date, b.end_date, b.goal_views) s
    WHERE b.start_date IS NOT NULL AND b.end_date IS NOT NULL
    GROUP BY 1, 2 HAVING sum(b.sign * s.views) <> 0 ORDER BY 1, 2
    ON CONFLICT (category, month) DO UPDATE SET views = kept.views + excluded.views)
  INSERT INTO inventory_unplanned AS kept (category, views)
  SELECT b.category, sum(b.sign * b.goal_views) FROM booking b
  WHERE b.start_date IS NULL OR b.end_date IS NULL
  GROUP BY 1 HAVING sum(b.sign * b.goal_views) <> 0 ORDER BY 1
  ON CONFLICT (category) DO UPDATE SET views = kept.views + excluded.views;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION inventory_forget_targets() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM inventory_consumption;
  DELETE FROM inventory_unplanned;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- No write of targets between the backfill's snapshot and the triggers (held until the migration commits).
LOCK TABLE targets IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
CREATE TRIGGER targets_inventory_insert AFTER INSERT ON targets REFERENCING NEW TABLE AS changed_targets
  FOR EACH STATEMENT EXECUTE FUNCTION inventory_follow_target_writes();
--> statement-breakpoint
CREATE TRIGGER targets_inventory_update AFTER UPDATE ON targets REFERENCING OLD TABLE AS old_targets NEW TABLE AS new_targets
  FOR EACH STATEMENT EXECUTE FUNCTION inventory_follow_target_updates();
--> statement-breakpoint
CREATE TRIGGER targets_inventory_delete AFTER DELETE ON targets REFERENCING OLD TABLE AS changed_targets
  FOR EACH STATEMENT EXECUTE FUNCTION inventory_follow_target_writes();
--> statement-breakpoint
CREATE TRIGGER targets_inventory_truncate AFTER TRUNCATE ON targets FOR EACH STATEMENT EXECUTE FUNCTION inventory_forget_targets();
--> statement-breakpoint
INSERT INTO inventory_consumption (category, month, views)
SELECT lower(t.population_category), s.month, sum(s.views) FROM targets t
  CROSS JOIN LATERAL inventory_target_months(t.start_date, t.end_date, t.goal_views) s
WHERE t.goal_views > 0 AND t.status <> '7. annulé' AND t.population_category IS NOT NULL AND t.start_date IS NOT NULL AND t.end_date IS NOT NULL
GROUP BY 1, 2 HAVING sum(s.views) <> 0;
--> statement-breakpoint
INSERT INTO inventory_unplanned (category, views)
SELECT lower(population_category), sum(goal_views) FROM targets
WHERE goal_views > 0 AND status <> '7. annulé' AND population_category IS NOT NULL AND (start_date IS NULL OR end_date IS NULL)
GROUP BY 1;
--> statement-breakpoint
-- Imports update the capacity cells in place (src-server/features/inventory/import.ts): room in each page lets
-- those be HOT updates, which add no index entries and are pruned without a vacuum (PGlite has none). CLUSTER
-- rewrites the rows already there with that room, month by month as the dashboard reads them.
ALTER TABLE inventory_capacity SET (fillfactor = 50);
--> statement-breakpoint
CLUSTER inventory_capacity USING inventory_capacity_month_idx;
--> statement-breakpoint
-- Statistics for the planner now, not at the next autovacuum (PGlite has none).
ANALYZE inventory_capacity, inventory_consumption, inventory_unplanned;
