import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { contract, type MultipartSpec } from '@shared/contract';
import type { BatScreenshot } from '@shared/contract/bat';
import { BAT_MESSAGES as M } from '@shared/messages/bat';
import { PREVIEW_MESSAGES } from '@shared/messages/previews';
import { STORAGE_MESSAGES } from '@shared/messages/storage';
import { SCREENSHOT_MAX_SIDE, pngSize } from '@shared/rules/bat';
import { BAT_ROOT } from '@shared/rules/preview';
import { checkKey } from '@shared/rules/storage';
import type { ServerContext } from '../../../context';
import { batScreenshots } from '../../../db/schema';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';
import { mediaUrl } from '../../../storage/media';
import { receiveFiles } from '../../../storage/multipart';
import { advertExists, ensureBat, loadScreenshots, toScreenshot } from '../queries';

type ScreenshotHandlers = Pick<Handlers, 'bat.uploadScreenshot' | 'bat.listScreenshots' | 'bat.deleteScreenshot'>;

/**
 * The proof's screenshot library (§2.6 screenshots: id, imgPath; §7 BAT upload answering webpath[]): PNG files
 * file0..n streamed to the storage under assets/bat/{advertId}, their URLs kept per advert. The first capture
 * creates the proof.
 */
export function screenshotHandlers(context: ServerContext): ScreenshotHandlers {
  const { db, storage } = context;
  const publicUrl = context.config.storage?.publicUrl;

  return {
    'bat.uploadScreenshot': async ({ request, account }) => {
      const stored = await receiveFiles<{ advertId: number }, { advertId: number; key: string; webpath: string }>(
        request,
        contract['bat.uploadScreenshot'].multipart as MultipartSpec,
        async (file) => {
          const { advertId } = file.fields;
          if (!(await advertExists(db, advertId))) {
            file.body.destroy();
            throw new HttpError(404, PREVIEW_MESSAGES.screenshotAdvertMissing);
          }
          const size = pngSize(file.head);
          if (size && Math.max(size.width, size.height) > SCREENSHOT_MAX_SIDE) {
            throw new HttpError(400, PREVIEW_MESSAGES.screenshotTooLarge(size.width, size.height, SCREENSHOT_MAX_SIDE));
          }
          // A random prefix: two captures of the same second never replace each other.
          const key = `${BAT_ROOT}/${advertId}/${randomBytes(4).toString('hex')}-${file.fileName}`;
          if (!checkKey(key).ok) throw new HttpError(400, STORAGE_MESSAGES.unsafeKey);
          return { advertId, key, webpath: mediaUrl(publicUrl, await storage.put(key, file.body, file.contentType)) };
        },
        async (files) => {
          await Promise.all(files.map((file) => storage.delete(file.key)));
        },
      );
      const advertId = stored[0].advertId;
      let rows: BatScreenshot[];
      try {
        rows = await db.transaction(async (tx) => {
          const inserted = await tx
            .insert(batScreenshots)
            .values(stored.map((file) => ({ advertId, webpath: file.webpath, storageKey: file.key })))
            .returning();
          await ensureBat(tx, advertId, account?.id ?? null);
          return inserted.map(toScreenshot);
        });
      } catch (error) {
        // The advert went away while the files arrived: its files are not kept either.
        await Promise.all(stored.map((file) => storage.delete(file.key)));
        throw error;
      }
      return { webpath: rows.map((row) => row.imgPath), screenshot: rows[rows.length - 1], screenshots: await loadScreenshots(db, advertId) };
    },

    'bat.listScreenshots': async ({ params }) => {
      if (!(await advertExists(db, params.advertId))) throw new HttpError(404, PREVIEW_MESSAGES.advertNotFound);
      return { advertId: params.advertId, screenshots: await loadScreenshots(db, params.advertId) };
    },

    'bat.deleteScreenshot': async ({ params }) => {
      const [row] = await db
        .delete(batScreenshots)
        .where(and(eq(batScreenshots.advertId, params.advertId), eq(batScreenshots.id, params.screenshotId)))
        .returning();
      if (!row) throw new HttpError(404, M.screenshotMissing);
      // The row is gone first: a file left behind by a failed delete is only an orphan, never a broken library.
      await storage.delete(row.storageKey).catch((error) => context.logger.warn({ err: error, key: row.storageKey }, 'BAT capture file not deleted'));
      return { screenshots: await loadScreenshots(db, params.advertId) };
    },
  };
}
