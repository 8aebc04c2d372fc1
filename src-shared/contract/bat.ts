import { z } from 'zod';
import { SCREENSHOT_FORMATS, SCREENSHOT_MAX_BYTES } from '../rules/preview';
import { BAT_ITEM_TYPES, BAT_MAX_ITEMS, BAT_MAX_LAYERS, BAT_MAX_PAGES, BAT_PDF_MAX_BYTES, BAT_VERSION_STATES } from '../rules/bat';
import { contentReaders, contentWriters } from './adverts';
import { defineOperation } from './define';
import { idParam } from './entities';

/**
 * The proof (BAT) of an advert (adverts-articles.md §2.6, §7 BAT): its pages, layers and items, the preview
 * captures that are its screenshot library, and (docs/content.md, BAT proofs, not in the spec) its frozen versions with approval.
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

/**
 * A layer item (§2.6: i, x, y, w, h, type, url, displayApp, content). Image and text items sit on the grid
 * (cells); an arrow keeps its start in x, y and its end in w, h (canvas pixels). `content` is the text's Lexical
 * state (sanitised by the server), `url` the image's, `displayApp` the image shown in a mobile frame.
 */
export const batItemSchema = z.object({
  i: z.string().min(1).max(64),
  x: z.number().int().min(-100_000).max(100_000),
  y: z.number().int().min(-100_000).max(100_000),
  w: z.number().int().min(-100_000).max(100_000),
  h: z.number().int().min(-100_000).max(100_000),
  type: z.enum(BAT_ITEM_TYPES),
  url: z.string().max(2048).nullable().default(null),
  displayApp: z.boolean().default(false),
  content: z.record(z.string(), z.unknown()).nullable().default(null),
});
export type BatItem = z.output<typeof batItemSchema>;

export const batLayerSchema = z.object({ id: z.number().int(), level: z.number().int(), content: z.array(batItemSchema) });
export type BatLayer = z.output<typeof batLayerSchema>;
export const batPageSchema = z.object({ page: z.number().int(), layers: z.array(batLayerSchema) });
export type BatPage = z.output<typeof batPageSchema>;

export const batVersionSchema = z.object({
  id: z.number().int(),
  number: z.number().int(),
  state: z.enum(BAT_VERSION_STATES),
  createdBy: z.string(),
  createdAt: z.number().int(),
  /** Who moved it to its state, and when (epoch ms); the creator while a draft. */
  stateBy: z.string(),
  stateAt: z.number().int(),
  /** A signed, expiring link to the frozen PDF in the document storage. */
  pdfUrl: z.string(),
});
export type BatVersion = z.output<typeof batVersionSchema>;

/** The whole proof as the editor loads it; `bat` null while none exists (§2.6 empty state). */
export const batDocumentSchema = z.object({
  advertId: z.number().int(),
  bat: z
    .object({
      /** Bumped by every write; a save names the one it was based on (409 when stale). */
      version: z.number().int(),
      updatedAt: z.number().int(),
      pages: z.array(batPageSchema),
    })
    .nullable(),
  screenshots: z.array(batScreenshotSchema),
  versions: z.array(batVersionSchema),
});
export type BatDocument = z.output<typeof batDocumentSchema>;

/** What the advert editor's toolbar shows of the proof (docs/content.md, BAT proofs): whether it exists, and its newest version. */
export const batSummarySchema = z.object({
  advertId: z.number().int(),
  /** The proof's pages; null while the advert has no proof. */
  pages: z.number().int().nullable(),
  /** The newest frozen version with its state, who moved it there and when; null while none was frozen. */
  latest: batVersionSchema.nullable(),
});
export type BatSummary = z.output<typeof batSummarySchema>;

const advertParams = z.strictObject({ advertId: idParam });
const pageNumber = z.number().int().min(1).max(BAT_MAX_PAGES);

export const batSaveBodySchema = z.strictObject({
  /** The version the editor's state was based on. */
  version: z.number().int().min(0).max(2_147_483_647),
  pages: z
    .array(
      z.strictObject({
        page: pageNumber,
        layers: z
          .array(z.strictObject({ id: z.number().int(), level: z.number().int(), content: z.array(batItemSchema).max(BAT_MAX_ITEMS) }))
          .max(BAT_MAX_LAYERS),
      }),
    )
    .max(BAT_MAX_PAGES),
});

export const batUploadFieldsSchema = z.strictObject({ advertId: idParam });

export const batOperations = {
  'bat.fetch': defineOperation({
    method: 'GET',
    path: '/bat/fetch/:id',
    summary: "The advert's proof: pages, layers, items, screenshot library and frozen versions",
    access: contentReaders,
    params: z.strictObject({ id: idParam }),
    response: batDocumentSchema,
  }),
  'bat.save': defineOperation({
    method: 'POST',
    path: '/bat/save/:advertId',
    summary:
      "Saves the items of the layers it names, the others keep theirs (the autosave names those changed since its last save; only the items that differ are written); answers the proof's new version, 409 when the proof changed since `version`",
    // Spec §6: SALES without ADMIN is blocked from advert writes.
    access: contentWriters,
    params: advertParams,
    body: batSaveBodySchema,
    bodyLimit: 8 * 1024 * 1024,
    response: z.object({ version: z.number().int(), updatedAt: z.number().int() }),
  }),
  'bat.deleteScreenshot': defineOperation({
    method: 'DELETE',
    path: '/bat/screenshot/:advertId/:screenshotId',
    summary: 'Removes a capture from the screenshot library (and its file)',
    access: contentWriters,
    params: z.strictObject({ advertId: idParam, screenshotId: idParam }),
    response: z.object({ screenshots: z.array(batScreenshotSchema) }),
  }),
  'bat.newPage': defineOperation({
    method: 'POST',
    path: '/bat/newpage/:advertId',
    summary: 'Adds a page (with one layer) after the last one',
    access: contentWriters,
    params: advertParams,
    response: batDocumentSchema,
  }),
  'bat.deletePage': defineOperation({
    method: 'DELETE',
    path: '/bat/page/:advertId',
    summary: 'Deletes a page; the next ones move up',
    access: contentWriters,
    params: advertParams,
    body: z.strictObject({ page: pageNumber }),
    response: batDocumentSchema,
  }),
  'bat.newLayer': defineOperation({
    method: 'POST',
    path: '/bat/newlayer/:advertId',
    summary: 'Adds a layer above the highest of a page',
    access: contentWriters,
    params: advertParams,
    body: z.strictObject({ page: pageNumber }),
    response: batDocumentSchema,
  }),
  'bat.deleteLayer': defineOperation({
    method: 'DELETE',
    path: '/bat/layer/:advertId',
    summary: 'Deletes a layer of a page, only when the page has another',
    access: contentWriters,
    params: advertParams,
    body: z.strictObject({ page: pageNumber, layerId: z.number().int() }),
    response: batDocumentSchema,
  }),
  'bat.uploadScreenshot': defineOperation({
    method: 'POST',
    path: '/bat/screenshot/upload',
    summary: "Uploads PNG captures (multipart: advertId, then files file0..n) into the advert's screenshot library; answers webpath[]",
    access: contentWriters,
    multipart: { fields: batUploadFieldsSchema, maxFileBytes: SCREENSHOT_MAX_BYTES, formats: SCREENSHOT_FORMATS, maxFiles: 20 },
    response: z.object({ webpath: z.array(z.string()), screenshot: batScreenshotSchema, screenshots: z.array(batScreenshotSchema) }),
  }),
  'bat.listScreenshots': defineOperation({
    method: 'GET',
    path: '/bat/screenshots/:advertId',
    summary: "The advert's preview captures, newest first",
    access: contentReaders,
    params: z.strictObject({ advertId: idParam }),
    response: z.object({ advertId: z.number().int(), screenshots: z.array(batScreenshotSchema) }),
  }),
  'bat.summary': defineOperation({
    method: 'GET',
    path: '/bat/summary/:advertId',
    summary: "The proof's state for the advert editor's toolbar (not in the spec): its page count and its newest frozen version",
    access: contentReaders,
    params: advertParams,
    response: batSummarySchema,
  }),
  'bat.freezeVersion': defineOperation({
    method: 'POST',
    path: '/bat/version/upload',
    summary: 'Freezes a version of the proof (not in the spec): multipart advertId then the exported PDF, kept in the document storage',
    access: contentWriters,
    multipart: { fields: batUploadFieldsSchema, maxFileBytes: BAT_PDF_MAX_BYTES, formats: ['pdf'] },
    response: z.object({ webpath: z.string(), version: batVersionSchema }),
  }),
  'bat.setVersionState': defineOperation({
    method: 'PUT',
    path: '/bat/version/:advertId/:versionId',
    summary: 'Moves a frozen version on: draft → envoyé au client → validé / modifications demandées',
    access: contentWriters,
    params: z.strictObject({ advertId: idParam, versionId: idParam }),
    body: z.strictObject({ state: z.enum(BAT_VERSION_STATES) }),
    response: batVersionSchema,
  }),
};
