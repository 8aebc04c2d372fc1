import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { advertWritableShape, articleWritableShape } from '@shared/contract/adverts';
import { MESSAGES } from '@shared/messages';
import { ADVERT_TYPES, ARTICLE_TYPES, isLegacyLayout, LATEST_MODEL, mapLegacyLayout } from '@shared/rules/advert-model';
import type { ServerContext } from '../../context';
import { HttpError } from '../../errors';
import { actorOf, loadItem, mergeInput, recordHistory, rows, TABLES, updateItem, type AnyModel, type Executor, type Kind } from './store';

/** Adverts and articles stored in an older layout, and their move to the latest one (the migration page). */

type Account = { id: number } | null;

const legacyRows = (executor: Executor, kind: Kind, limit: number) =>
  rows<{ id: number; name: string; type: string | null; model: string; data: Record<string, unknown> }>(
    executor,
    sql`SELECT id, name, type, model, data FROM ${TABLES[kind].items} WHERE model <> ${LATEST_MODEL} ORDER BY id LIMIT ${limit}`,
  );

/** The stored row as the legacy mapping reads it: its `data` with the columns put back. */
const rawOf = (row: { name: string; type: string | null; data: Record<string, unknown> }) => ({
  ...row.data,
  name: row.name,
  ...(row.type ? { type: row.type } : {}),
});

export async function legacyItems(db: Executor) {
  const limit = 500;
  const items = [];
  for (const kind of ['advert', 'article'] as const) {
    for (const row of await legacyRows(db, kind, limit)) {
      let mappedType: string;
      try {
        mappedType = String(mapLegacyLayout(rawOf(row)).type ?? '');
      } catch {
        mappedType = '';
      }
      items.push({ kind, id: row.id, name: row.name, type: row.type, model: row.model, nestedDocument: isLegacyLayout(row.data), mappedType });
    }
  }
  const [count] = await rows<{ n: number }>(
    db,
    sql`SELECT ((SELECT count(*) FROM adverts WHERE model <> ${LATEST_MODEL}) + (SELECT count(*) FROM articles WHERE model <> ${LATEST_MODEL}))::int AS n`,
  );
  return { items: items.slice(0, limit), total: count.n };
}

/** Maps each item to the latest layout (spec §3) in its own transaction; an item that cannot be mapped is answered. */
export async function migrateLegacy(db: ServerContext['db'], now: () => number, items: { kind: Kind; id: number }[], account: Account) {
  let migrated = 0;
  const failed: { kind: Kind; id: number; message: string }[] = [];
  for (const item of items) {
    try {
      const done = await db.transaction(async (tx) => {
        const actor = await actorOf(tx, account);
        const [row] = await rows<{ id: number; name: string; type: string | null; model: string; data: Record<string, unknown> }>(
          tx,
          sql`SELECT id, name, type, model, data FROM ${TABLES[item.kind].items} WHERE id = ${item.id} FOR UPDATE`,
        );
        if (!row) throw new HttpError(404, item.kind === 'advert' ? MESSAGES.advertNotFound : MESSAGES.articleNotFound);
        if (row.model === LATEST_MODEL) return false;
        const mapped = mapLegacyLayout(rawOf(row));
        const types: readonly string[] = item.kind === 'advert' ? ADVERT_TYPES : ARTICLE_TYPES;
        if (!types.includes(String(mapped.type))) throw new HttpError(400, `type : inconnu (${String(mapped.type)})`);
        const { model: current } = await loadItem(tx, item.kind, item.id);
        const shape = item.kind === 'advert' ? advertWritableShape : articleWritableShape;
        // Only the fields the latest model knows, each checked against its schema; a bad one keeps the default.
        const fields = Object.fromEntries(
          Object.entries(mapped).filter(([key, value]) => key in shape && (shape as Record<string, z.ZodType>)[key].safeParse(value).success),
        );
        const next = mergeInput(current, fields);
        await updateItem(tx, item.kind, next, { updatedAt: now() });
        await tx.execute(sql`UPDATE ${TABLES[item.kind].items} SET model = ${LATEST_MODEL} WHERE id = ${item.id}`);
        const { model: saved } = await loadItem(tx, item.kind, item.id);
        await recordHistory(tx, item.kind, item.id, 'modelMigration', actor, { ...current, model: row.model } as AnyModel, saved);
        return true;
      });
      if (done) migrated += 1;
    } catch (error) {
      failed.push({ ...item, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return { migrated, failed };
}
