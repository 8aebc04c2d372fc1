import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { BatDocument, BatItem, BatPage, BatScreenshot, BatVersion } from '@shared/contract/bat';
import type { Database } from '../../db/client';
import { param } from '../../db/rows';
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

/** An item as stored, with its row id (a save compares against it). */
export type StoredItem = BatItem & { id: number; position: number };
/** The proof's layers in page and level order, with their stored items in order. */
export type StoredLayer = { id: number; page: number; level: number; items: StoredItem[] };

/** Every layer of the proof with its items, in one statement (the save's diff reads it). */
export async function loadStoredLayers(db: Db, advertId: number): Promise<StoredLayer[]> {
  const found = await db
    .select({
      page: batPages.pageNumber,
      layerId: batLayers.id,
      level: batLayers.level,
      item: batItems,
    })
    .from(batPages)
    .innerJoin(batLayers, eq(batLayers.pageId, batPages.id))
    .leftJoin(batItems, eq(batItems.layerId, batLayers.id))
    .where(eq(batPages.advertId, advertId))
    .orderBy(asc(batPages.pageNumber), asc(batLayers.level), asc(batLayers.id), asc(batItems.position));
  const layers: StoredLayer[] = [];
  for (const row of found) {
    let layer = layers[layers.length - 1];
    if (layer?.id !== row.layerId) layers.push((layer = { id: row.layerId, page: row.page, level: row.level, items: [] }));
    const item = row.item;
    if (item) {
      layer.items.push({
        id: item.id,
        position: item.position,
        i: item.itemKey,
        x: item.x,
        y: item.y,
        w: item.w,
        h: item.h,
        type: item.type,
        url: item.url,
        displayApp: item.displayApp,
        content: item.content,
      });
    }
  }
  return layers;
}

/** A layer's item as a row to insert or to update. */
export type ItemRow = typeof batItems.$inferInsert;

/** What a save changes in the items: rows gone, rows changed (by id), rows new; at most one statement each. */
export async function writeItemChanges(db: Db, changes: { deleted: number[]; updated: (ItemRow & { id: number })[]; inserted: ItemRow[] }) {
  if (changes.deleted.length) await db.delete(batItems).where(inArray(batItems.id, changes.deleted));
  if (changes.updated.length) {
    // One statement for every changed row: the values travel as one JSON parameter.
    await db.execute(sql`
      UPDATE bat_items AS i SET position = v.position, item_key = v."itemKey", x = v.x, y = v.y, w = v.w, h = v.h, type = v.type,
        url = v.url, display_app = v."displayApp", content = v.content
      FROM jsonb_to_recordset(${param(JSON.stringify(changes.updated))}::jsonb)
        AS v(id int, position int, "itemKey" text, x int, y int, w int, h int, type text, url text, "displayApp" boolean, content jsonb)
      WHERE i.id = v.id`);
  }
  if (changes.inserted.length) await db.insert(batItems).values(changes.inserted);
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
