import { randomBytes } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { contract, type MultipartSpec } from '@shared/contract';
import type { BatScreenshot, batOperations } from '@shared/contract/bat';
import { PREVIEW_MESSAGES } from '@shared/messages/previews';
import { STORAGE_MESSAGES } from '@shared/messages/storage';
import { BAT_ROOT } from '@shared/rules/preview';
import { checkKey } from '@shared/rules/storage';
import type { ServerContext } from '../../context';
import { adverts, batScreenshots } from '../../db/schema';
import { HttpError } from '../../errors';
import type { Handlers } from '../../operations';
import { mediaUrl } from '../../storage/media';
import { receiveFile } from '../../storage/multipart';

type BatHandlers = Pick<Handlers, keyof typeof batOperations>;

const toScreenshot = (row: typeof batScreenshots.$inferSelect): BatScreenshot => ({
  id: row.id,
  advertId: row.advertId,
  imgPath: row.webpath,
  createdAt: row.createdAt.getTime(),
});

/**
 * The proof (BAT) of an advert, for now its preview captures (adverts-articles.md §2.2 screenshot, §7 BAT upload):
 * a PNG streamed to the server's storage under assets/bat/{advertId}, its URL kept per advert.
 */
export async function batFeature(context: ServerContext): Promise<BatHandlers> {
  const { db, storage } = context;
  const publicUrl = context.config.storage?.publicUrl;

  const advertExists = async (id: number) => {
    const [row] = await db.select({ id: adverts.id }).from(adverts).where(eq(adverts.id, id));
    return Boolean(row);
  };

  return {
    'bat.uploadScreenshot': async ({ request }) =>
      receiveFile<{ advertId: number }, { webpath: string[]; screenshot: BatScreenshot }>(
        request,
        contract['bat.uploadScreenshot'].multipart as MultipartSpec,
        async (file) => {
          const { advertId } = file.fields;
          if (!(await advertExists(advertId))) {
            file.body.destroy();
            throw new HttpError(404, PREVIEW_MESSAGES.screenshotAdvertMissing);
          }
          // A random prefix: two captures of the same second never replace each other.
          const key = `${BAT_ROOT}/${advertId}/${randomBytes(4).toString('hex')}-${file.fileName}`;
          if (!checkKey(key).ok) throw new HttpError(400, STORAGE_MESSAGES.unsafeKey);
          const webpath = mediaUrl(publicUrl, await storage.put(key, file.body, file.contentType));
          try {
            const [row] = await db.insert(batScreenshots).values({ advertId, webpath, storageKey: key }).returning();
            return { webpath: [webpath], screenshot: toScreenshot(row) };
          } catch (error) {
            // The advert went away while the file arrived: its file is not kept either.
            await storage.delete(key);
            throw error;
          }
        },
      ),

    'bat.listScreenshots': async ({ params }) => {
      if (!(await advertExists(params.advertId))) throw new HttpError(404, PREVIEW_MESSAGES.advertNotFound);
      const rows = await db
        .select()
        .from(batScreenshots)
        .where(eq(batScreenshots.advertId, params.advertId))
        .orderBy(desc(batScreenshots.createdAt), desc(batScreenshots.id));
      return { advertId: params.advertId, screenshots: rows.map(toScreenshot) };
    },
  };
}
