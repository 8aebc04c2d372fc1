import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { BatItem } from '@shared/contract/bat';
import { BAT_MESSAGES as M } from '@shared/messages/bat';
import { BAT_MAX_LAYERS, BAT_MAX_PAGES, firstCollision, itemError } from '@shared/rules/bat';
import type { ServerContext } from '../../../context';
import { batLayers, batPages } from '../../../db/schema';
import { HttpError } from '../../../errors';
import { nameOfEditor, staleVersion } from '../../../db/versioning';
import type { Handlers } from '../../../operations';
import { sanitizeRichText, type RichTextProfile } from '../../../rich-text';
import { keyOfMediaUrl } from '../../../storage/media';
import {
  advertExists,
  batRow,
  bumpVersion,
  ensureBat,
  loadDocument,
  loadLayerPages,
  pageRow,
  writeLayerItems,
  type ItemRow,
  type Db,
  type VersionRow,
} from '../queries';

type EditorHandlers = Pick<Handlers, 'bat.fetch' | 'bat.save' | 'bat.newPage' | 'bat.deletePage' | 'bat.newLayer' | 'bat.deleteLayer'>;

/**
 * What the proof's text toolbar makes (§2.6: bold, italic, underline, strike, size, align, link, colour,
 * background): paragraphs of texts with their format bits and a style of font-size, color and background-color.
 */
export const PROOF_TEXT: RichTextProfile = { blocks: [], maxText: 20_000, styles: true, paragraphRoot: true };

const SAFE_IMAGE_URL = /^(https?:\/\/|\/cdn\/)[^\s"'<>()\\]*$/i;

/** An item as stored: checked against the grid (or the arrow rules), text sanitised, image URL one of ours or http(s). */
export function checkedItem(item: BatItem, publicUrl: string | undefined): BatItem {
  const error = itemError(item);
  if (error) throw new HttpError(400, M.itemInvalid(item.i, error));
  if (item.type === 'text') return { ...item, url: null, displayApp: false, content: sanitizeRichText(item.content, PROOF_TEXT) };
  if (item.type === 'arrow') return { ...item, url: null, displayApp: false, content: null };
  const url = (item.url ?? '').trim();
  if (!SAFE_IMAGE_URL.test(url) && keyOfMediaUrl(url, publicUrl) === null)
    throw new HttpError(400, M.itemInvalid(item.i, "L'adresse de l'image n'est pas valide."));
  return { ...item, url, content: null };
}

const itemRow = (layerId: number, position: number, item: BatItem): ItemRow => ({
  layerId,
  position,
  itemKey: item.i,
  x: item.x,
  y: item.y,
  w: item.w,
  h: item.h,
  type: item.type,
  url: item.url,
  displayApp: item.displayApp,
  content: item.content,
});

function checkLayerItems(items: BatItem[]) {
  const keys = new Set<string>();
  for (const item of items) {
    if (keys.has(item.i)) throw new HttpError(400, M.duplicateItem(item.i));
    keys.add(item.i);
  }
  const collision = firstCollision(items);
  if (collision) throw new HttpError(400, M.collision(...collision));
}

/** The proof's pages, layers and items (§2.6, §7 BAT): every write takes the proof's row and bumps its version. */
export function editorHandlers(context: ServerContext, versionUrl: (row: VersionRow) => string): EditorHandlers {
  const { db } = context;
  const publicUrl = context.config.storage?.publicUrl;

  /** A structural write on an existing advert's proof (created when missing), answering the whole proof. */
  const write = async (advertId: number, accountId: number, change: (tx: Db) => Promise<void>) => {
    if (!(await advertExists(db, advertId))) throw new HttpError(404, M.advertNotFound);
    return db.transaction(async (tx) => {
      await ensureBat(tx, advertId, accountId);
      await bumpVersion(tx, advertId, accountId, context.clock.now());
      await change(tx);
      return loadDocument(tx, advertId, versionUrl);
    });
  };

  const requirePage = async (tx: Db, advertId: number, page: number) => {
    const row = await pageRow(tx, advertId, page);
    if (!row) throw new HttpError(404, M.pageMissing);
    return row;
  };

  return {
    'bat.fetch': async ({ params }) => {
      if (!(await advertExists(db, params.id))) throw new HttpError(404, M.advertNotFound);
      return loadDocument(db, params.id, versionUrl);
    },

    'bat.save': async ({ params, body, account }) => {
      const { advertId } = params;
      const pages = body.pages.map((page) => ({
        page: page.page,
        layers: page.layers.map((layer) => {
          const content = layer.content.map((item) => checkedItem(item, publicUrl));
          checkLayerItems(content);
          return { id: layer.id, content };
        }),
      }));
      return db.transaction(async (tx) => {
        // The version check is the first statement: an autosave costs one read and the rows that changed.
        const bumped = await bumpVersion(tx, advertId, account!.id, context.clock.now(), body.version);
        if (!bumped) {
          const current = await batRow(tx, advertId);
          // Stale (docs/architecture.md, "Versions and conflicts"): who changed the proof and when, so the editor
          // can say it and merge its unsaved items onto theirs.
          if (current) throw staleVersion('bat', { ...current, editorName: await nameOfEditor(tx, current.updatedBy) }, null);
          throw new HttpError(404, (await advertExists(tx, advertId)) ? M.batMissing : M.advertNotFound);
        }
        const pageOfLayer = await loadLayerPages(tx, advertId);
        const rows: ItemRow[] = [];
        for (const page of pages) {
          for (const layer of page.layers) {
            // A layer deleted or on another page since: the editor's proof is older than the stored one.
            if (pageOfLayer.get(layer.id) !== page.page) throw new HttpError(409, M.stale);
            layer.content.forEach((item, position) => rows.push(itemRow(layer.id, position, item)));
          }
        }
        await writeLayerItems(
          tx,
          pages.flatMap((page) => page.layers.map((layer) => layer.id)),
          rows,
        );
        return { version: bumped.version, updatedAt: bumped.updatedAt.getTime() };
      });
    },

    'bat.newPage': async ({ params, account }) =>
      write(params.advertId, account!.id, async (tx) => {
        const [last] = await tx
          .select({ pageNumber: batPages.pageNumber })
          .from(batPages)
          .where(eq(batPages.advertId, params.advertId))
          .orderBy(desc(batPages.pageNumber))
          .limit(1);
        const pageNumber = (last?.pageNumber ?? 0) + 1;
        if (pageNumber > BAT_MAX_PAGES) throw new HttpError(400, `Un BAT a au plus ${BAT_MAX_PAGES} pages.`);
        const [page] = await tx.insert(batPages).values({ advertId: params.advertId, pageNumber }).returning({ id: batPages.id });
        await tx.insert(batLayers).values({ pageId: page.id, level: 1 });
      }),

    'bat.deletePage': async ({ params, body, account }) =>
      write(params.advertId, account!.id, async (tx) => {
        const page = await requirePage(tx, params.advertId, body.page);
        const [{ count }] = await tx
          .select({ count: sql<number>`count(*)::int` })
          .from(batPages)
          .where(eq(batPages.advertId, params.advertId));
        if (count <= 1) throw new HttpError(409, M.lastPage);
        await tx.delete(batPages).where(eq(batPages.id, page.id));
        await tx
          .update(batPages)
          .set({ pageNumber: sql`${batPages.pageNumber} - 1` })
          .where(and(eq(batPages.advertId, params.advertId), gt(batPages.pageNumber, body.page)));
      }),

    'bat.newLayer': async ({ params, body, account }) =>
      write(params.advertId, account!.id, async (tx) => {
        const page = await requirePage(tx, params.advertId, body.page);
        const layers = await tx.select({ level: batLayers.level }).from(batLayers).where(eq(batLayers.pageId, page.id));
        if (layers.length >= BAT_MAX_LAYERS) throw new HttpError(400, `Une page a au plus ${BAT_MAX_LAYERS} calques.`);
        const level = Math.max(0, ...layers.map((layer) => layer.level)) + 1;
        await tx.insert(batLayers).values({ pageId: page.id, level });
      }),

    'bat.deleteLayer': async ({ params, body, account }) =>
      write(params.advertId, account!.id, async (tx) => {
        const page = await requirePage(tx, params.advertId, body.page);
        const layers = await tx.select({ id: batLayers.id }).from(batLayers).where(eq(batLayers.pageId, page.id));
        if (!layers.some((layer) => layer.id === body.layerId)) throw new HttpError(404, M.layerMissing);
        // §2.6: a layer can be deleted only when more than one exists.
        if (layers.length <= 1) throw new HttpError(409, M.lastLayer);
        await tx.delete(batLayers).where(eq(batLayers.id, body.layerId));
      }),
  };
}
