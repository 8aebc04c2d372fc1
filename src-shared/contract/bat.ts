import { z } from 'zod';
import { SCREENSHOT_FORMATS, SCREENSHOT_MAX_BYTES } from '../rules/preview';
import { contentReaders, contentWriters } from './adverts';
import { defineOperation } from './define';
import { idParam } from './entities';

/**
 * The proof (BAT) of an advert (adverts-articles.md §2.6, §7 BAT): for now its preview captures only — the
 * upload of §7 and their list. The proof editor (pages, layers, arrows, PDF) is a later issue.
 */
export const batScreenshotSchema = z.object({
  id: z.number().int(),
  advertId: z.number().int(),
  /** The capture's media URL (spec §2.6 screenshot imgPath). */
  imgPath: z.string(),
  /** Epoch milliseconds. */
  createdAt: z.number().int(),
});
export type BatScreenshot = z.infer<typeof batScreenshotSchema>;

export const batUploadFieldsSchema = z.strictObject({ advertId: idParam });

export const batOperations = {
  'bat.uploadScreenshot': defineOperation({
    method: 'POST',
    path: '/bat/screenshot/upload',
    summary: "Uploads a preview capture (multipart: advertId, then a PNG file) into the advert's BAT screenshots; answers webpath[]",
    // Spec §6: SALES without ADMIN is blocked from advert writes.
    access: contentWriters,
    multipart: { fields: batUploadFieldsSchema, maxFileBytes: SCREENSHOT_MAX_BYTES, formats: SCREENSHOT_FORMATS },
    response: z.object({ webpath: z.array(z.string()), screenshot: batScreenshotSchema }),
  }),
  'bat.listScreenshots': defineOperation({
    method: 'GET',
    path: '/bat/:advertId/screenshots',
    summary: "The advert's preview captures, newest first",
    access: contentReaders,
    params: z.strictObject({ advertId: idParam }),
    response: z.object({ advertId: z.number().int(), screenshots: z.array(batScreenshotSchema) }),
  }),
};
