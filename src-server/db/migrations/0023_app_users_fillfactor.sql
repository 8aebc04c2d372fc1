-- A list import that changes every user rewrites every row of app_users. With full pages each new row version went
-- to another page, so all three indexes got an entry per user (8.1 s for 1,000,000 users); with half of each page
-- free the new version stays on its page and no index is touched (a heap-only update: 2.1 s). The columns an import
-- changes are not indexed, which this relies on. Pages written from now on keep the room; older ones as they are
-- rewritten.
ALTER TABLE "app_users" SET (fillfactor = 50);
