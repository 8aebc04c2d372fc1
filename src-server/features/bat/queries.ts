import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { BatDocument, BatItem, BatPage, BatScreenshot, BatVersion } from '@shared/contract/bat';
import type { Database } from '../../db/client';
import { param, rows } from '../../db/rows';
import { adverts, batItems, batLayers, batPages, bats, batScreenshots, batVersions } from '../../db/schema';

/** A database or a transaction on it. */
export type Db = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

export const toScreenshot = (row: typeof batScreenshots.$inferSelect): BatScreenshot => ({
  id: row.id,
  advertId: row.advertId,
  imgPath: row.webpath,
  createdAt: row.createdAt.getTime(),
});

export async function advertExists(db: Db, id: number): Promise<boolean> {
  const [row] = await db.select({ id: adverts.id }).from(adverts).where(eq(adverts.id, id));
  return Boolean(row);
}

export async function loadScreenshots(db: Db, advertId: number): Promise<BatScreenshot[]> {
  const rows = await db
    .select()
    .from(batScreenshots)
    .where(eq(batScreenshots.advertId, advertId))
    .orderBy(desc(batScreenshots.createdAt), desc(batScreenshots.id));
  return rows.map(toScreenshot);
}

/** The proof's pages with their layers (by level) and items (in order). */
export async function loadPages(db: Db, advertId: number): Promise<BatPage[]> {
  const pages = await db.select().from(batPages).where(eq(batPages.advertId, advertId)).orderBy(asc(batPages.pageNumber));
  if (!pages.length) return [];
  const layers = await db
    .select()
    .from(batLayers)
    .where(
      inArray(
        batLayers.pageId,
        pages.map((page) => page.id),
      ),
    )
    .orderBy(asc(batLayers.level), asc(batLayers.id));
  const items = layers.length
    ? await db
        .select()
        .from(batItems)
        .where(
          inArray(
            batItems.layerId,
            layers.map((layer) => layer.id),
          ),
        )
        .orderBy(asc(batItems.layerId), asc(batItems.position))
    : [];
  const itemsByLayer = new Map<number, BatItem[]>();
  for (const row of items) {
    const list = itemsByLayer.get(row.layerId) ?? [];
    list.push({
      i: row.itemKey,
      x: row.x,
      y: row.y,
      w: row.w,
      h: row.h,
      type: row.type,
      url: row.url,
      displayApp: row.displayApp,
      content: row.content,
    });
    itemsByLayer.set(row.layerId, list);
  }
  return pages.map((page) => ({
    page: page.pageNumber,
    layers: layers
      .filter((layer) => layer.pageId === page.id)
      .map((layer) => ({ id: layer.id, level: layer.level, content: itemsByLayer.get(layer.id) ?? [] })),
  }));
}

export async function batRow(db: Db, advertId: number) {
  const [row] = await db.select().from(bats).where(eq(bats.advertId, advertId));
  return row ?? null;
}

/** Creates the proof with one page of one layer when it does not exist yet (its first capture or page). */
export async function ensureBat(db: Db, advertId: number, accountId: number | null): Promise<void> {
  const inserted = await db.insert(bats).values({ advertId, updatedBy: accountId }).onConflictDoNothing().returning({ advertId: bats.advertId });
  if (!inserted.length) return;
  const [page] = await db.insert(batPages).values({ advertId, pageNumber: 1 }).returning({ id: batPages.id });
  await db.insert(batLayers).values({ pageId: page.id, level: 1 });
}

/**
 * Takes the proof's row for this write (a row lock until the transaction ends) and bumps its version; when
 * `expected` is given and differs from the stored version, nothing changes and null is answered (stale save).
 */
export async function bumpVersion(db: Db, advertId: number, accountId: number, now: Date, expected?: number) {
  const condition = expected === undefined ? eq(bats.advertId, advertId) : and(eq(bats.advertId, advertId), eq(bats.version, expected));
  const [row] = await db
    .update(bats)
    .set({ version: sql`${bats.version} + 1`, updatedAt: now, updatedBy: accountId })
    .where(condition)
    .returning();
  return row ?? null;
}

/** The page of each of the proof's layers (a save checks the layers it names against them). */
export async function loadLayerPages(db: Db, advertId: number): Promise<Map<number, number>> {
  const found = await db
    .select({ id: batLayers.id, page: batPages.pageNumber })
    .from(batLayers)
    .innerJoin(batPages, eq(batPages.id, batLayers.pageId))
    .where(eq(batPages.advertId, advertId));
  return new Map(found.map((layer) => [layer.id, layer.page]));
}

/** A layer's item as a save writes it. */
export type ItemRow = Omit<typeof batItems.$inferInsert, 'id'>;

/**
 * Replaces the items of the given layers with `items`, in one statement that writes only what differs: an item
 * (known by its key within its layer) whose fields or text are unchanged keeps its row, a changed one is updated,
 * a new one inserted, one no longer there deleted. An autosave sends the whole proof every 500 ms of editing;
 * rewriting its hundreds of rows each time was most of its cost. Answers the rows written.
 */
export async function writeLayerItems(db: Db, layerIds: number[], items: ItemRow[]): Promise<{ deleted: number; updated: number; inserted: number }> {
  const [written] = await rows<{ deleted: number; updated: number; inserted: number }>(
    db,
    sql`WITH v AS (
          SELECT * FROM jsonb_to_recordset(${param(JSON.stringify(items))}::jsonb)
            AS v("layerId" int, position int, "itemKey" text, x int, y int, w int, h int, type text, url text, "displayApp" boolean, content jsonb)
        ), gone AS (
          DELETE FROM bat_items i WHERE i.layer_id = ANY(${param(layerIds)}::int[])
            AND NOT EXISTS (SELECT 1 FROM v WHERE v."layerId" = i.layer_id AND v."itemKey" = i.item_key)
          RETURNING i.id
        ), changed AS (
          UPDATE bat_items i SET position = v.position, x = v.x, y = v.y, w = v.w, h = v.h, type = v.type, url = v.url,
            display_app = v."displayApp", content = v.content
          FROM v WHERE i.layer_id = v."layerId" AND i.item_key = v."itemKey"
            AND (i.position, i.x, i.y, i.w, i.h, i.type, i.url, i.display_app, i.content)
              IS DISTINCT FROM (v.position, v.x, v.y, v.w, v.h, v.type, v.url, v."displayApp", v.content)
          RETURNING i.id
        ), added AS (
          INSERT INTO bat_items (layer_id, position, item_key, x, y, w, h, type, url, display_app, content)
          SELECT v."layerId", v.position, v."itemKey", v.x, v.y, v.w, v.h, v.type, v.url, v."displayApp", v.content FROM v
          WHERE NOT EXISTS (SELECT 1 FROM bat_items i WHERE i.layer_id = v."layerId" AND i.item_key = v."itemKey")
          RETURNING id
        )
        SELECT (SELECT count(*)::int FROM gone) AS deleted, (SELECT count(*)::int FROM changed) AS updated,
          (SELECT count(*)::int FROM added) AS inserted`,
  );
  return written;
}

export async function pageRow(db: Db, advertId: number, pageNumber: number) {
  const [row] = await db
    .select()
    .from(batPages)
    .where(and(eq(batPages.advertId, advertId), eq(batPages.pageNumber, pageNumber)));
  return row ?? null;
}

export type VersionRow = typeof batVersions.$inferSelect;

export async function loadVersionRows(db: Db, advertId: number): Promise<VersionRow[]> {
  return db.select().from(batVersions).where(eq(batVersions.advertId, advertId)).orderBy(desc(batVersions.number));
}

/**
 * The proof's page count (null without a proof: a proof always keeps one page) and its newest version, for the
 * advert editor's toolbar.
 */
export async function loadSummaryRows(db: Db, advertId: number): Promise<{ pages: number | null; latest: VersionRow | null }> {
  const [[{ pages }], [latest]] = await Promise.all([
    db
      .select({ pages: sql<number>`count(*)::int` })
      .from(batPages)
      .where(eq(batPages.advertId, advertId)),
    db.select().from(batVersions).where(eq(batVersions.advertId, advertId)).orderBy(desc(batVersions.number)).limit(1),
  ]);
  return { pages: pages || null, latest: latest ?? null };
}

export function toVersion(row: VersionRow, pdfUrl: string): BatVersion {
  return {
    id: row.id,
    number: row.number,
    state: row.state,
    createdBy: row.createdBy,
    createdAt: row.createdAt.getTime(),
    stateBy: row.stateBy,
    stateAt: row.stateAt.getTime(),
    pdfUrl,
  };
}

/** The whole proof as bat.fetch answers it. */
export async function loadDocument(db: Db, advertId: number, versionUrl: (row: VersionRow) => string): Promise<BatDocument> {
  const [bat, screenshots, versions] = await Promise.all([batRow(db, advertId), loadScreenshots(db, advertId), loadVersionRows(db, advertId)]);
  return {
    advertId,
    bat: bat ? { version: bat.version, updatedAt: bat.updatedAt.getTime(), pages: await loadPages(db, advertId) } : null,
    screenshots,
    versions: versions.map((row) => toVersion(row, versionUrl(row))),
  };
}
