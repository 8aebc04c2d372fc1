import { z } from 'zod';
import { access } from '../roles';
import {
  DOCUMENT_FORMATS,
  DOCUMENT_MAX_BYTES,
  DOCUMENTS_ROOT,
  LIBRARY_LABELS,
  LIBRARY_MAX_BYTES,
  MAX_KEY_LENGTH,
  MEDIA_FORMATS,
} from '../rules/storage';
import { defineOperation } from './define';
import { idParam, plainText } from './entities';

/** Who browses the document storage (spec §6: CSM and CONTENT_CREATOR; ADMIN passes any-of). */
const storageUsers = access.anyOf('CSM', 'CONTENT_CREATOR');

const keyText = plainText(MAX_KEY_LENGTH);

export const storedFileSchema = z.object({
  name: z.string(),
  /** The storage key (e.g. assets/clients/labo/deck.pdf). */
  path: z.string(),
  /** Its stable media URL, with the `d` cache-busting parameter (spec §3). */
  url: z.string(),
  size: z.number().int(),
  /** Last change, epoch milliseconds. */
  updatedAt: z.number().int(),
});
export type StoredFile = z.infer<typeof storedFileSchema>;

export const storedFolderSchema = z.object({ name: z.string(), path: z.string() });
export type StoredFolder = z.infer<typeof storedFolderSchema>;

export const folderListingSchema = z.object({
  folder: z.string(),
  folders: z.array(storedFolderSchema),
  files: z.array(storedFileSchema),
});
export type FolderListing = z.infer<typeof folderListingSchema>;

/** What an upload answers: the stored file, and its URL under the name the spec's clients read (webpath). */
export const uploadedSchema = storedFileSchema.extend({ webpath: z.string() });

export const documentUploadFieldsSchema = z.strictObject({
  /** The folder, under assets/clients (spec §7); '' or the root itself for the root. */
  path: keyText.default(DOCUMENTS_ROOT),
});

/** Who edits adverts and articles, and so their media (spec §6: the editors' roles). */
const mediaEditors = access.anyOf('CSM', 'CSM_LEAD', 'CONTENT_CREATOR', 'CONTENT_CREATOR_LEAD');

export const librarySchema = z.object({
  id: z.number().int(),
  label: z.enum(LIBRARY_LABELS),
  ownerId: z.number().int(),
  content: z.array(z.string()),
});
export type Library = z.infer<typeof librarySchema>;

const mediaUrlText = plainText(4096).min(1);

export const libraryUploadFieldsSchema = z.strictObject({ libraryId: idParam });

export const storageOperations = {
  'storage.list': defineOperation({
    method: 'GET',
    path: '/f/cdn/list',
    summary: 'Files and folders of one folder of the document storage (one level)',
    access: storageUsers,
    query: z.strictObject({ folder: keyText.optional() }),
    response: folderListingSchema,
  }),
  'storage.uploadDocument': defineOperation({
    method: 'POST',
    path: '/f/document/upload',
    summary: 'Uploads one document under assets/clients (multipart: path, then file); an empty .keep makes a folder',
    access: storageUsers,
    multipart: { fields: documentUploadFieldsSchema, maxFileBytes: DOCUMENT_MAX_BYTES, formats: DOCUMENT_FORMATS },
    response: uploadedSchema,
  }),
  'storage.deleteDocument': defineOperation({
    method: 'DELETE',
    path: '/f/document/delete',
    summary: 'Deletes one document (its key or its media URL)',
    access: storageUsers,
    body: z.strictObject({ filePath: mediaUrlText }),
    response: z.object({ deleted: z.string() }),
  }),
  'storage.deleteAttachment': defineOperation({
    method: 'DELETE',
    path: '/f/advert/attachment/delete',
    summary: "Deletes an advert's or a library's media file, only when it is on the product's storage",
    access: mediaEditors,
    body: z.strictObject({ filePath: mediaUrlText }),
    response: z.object({ deleted: z.string() }),
  }),
  'library.get': defineOperation({
    method: 'GET',
    path: '/library/:label/:id',
    summary: 'The media library of an advert or article (made empty on first use)',
    access: mediaEditors,
    // Made on first use (its id is what an upload names); a second call writes nothing.
    sideEffects: 'idempotent',
    params: z.strictObject({ label: z.enum(LIBRARY_LABELS), id: idParam }),
    response: librarySchema,
  }),
  'library.put': defineOperation({
    method: 'PUT',
    path: '/library/:label/:id',
    summary: "Replaces the library's content (media URLs of the product's storage, in order)",
    access: mediaEditors,
    params: z.strictObject({ label: z.enum(LIBRARY_LABELS), id: idParam }),
    body: z.strictObject({ content: z.array(mediaUrlText).max(500) }),
    response: librarySchema,
  }),
  'library.deleteItem': defineOperation({
    method: 'DELETE',
    path: '/library/:id/item',
    summary:
      'Removes one media from a library and deletes its file; while adverts show it, a 409 names them (docs/content.md, media in use) unless `force` (the user confirmed)',
    access: mediaEditors,
    params: z.strictObject({ id: idParam }),
    body: z.strictObject({ item: mediaUrlText, force: z.boolean().optional() }),
    response: librarySchema,
  }),
  'library.upload': defineOperation({
    method: 'POST',
    path: '/library/attachment/media/upload',
    summary: 'Uploads one media into a library (multipart: libraryId, then file; 10 MB)',
    access: mediaEditors,
    multipart: { fields: libraryUploadFieldsSchema, maxFileBytes: LIBRARY_MAX_BYTES, formats: MEDIA_FORMATS },
    response: z.object({ webpaths: z.array(z.string()), library: librarySchema }),
  }),
  'storage.media': defineOperation({
    method: 'GET',
    path: '/cdn/*',
    summary:
      'Serves a stored file (the "CDN"): type from its bytes, nosniff, sandboxed, long cache with d; client documents (assets/clients) only with the signature the server gave (expires, signature)',
    access: access.public,
    query: z.object({ d: plainText(40).optional(), expires: plainText(40).optional(), signature: plainText(100).optional() }),
    response: z.unknown(),
    answersMedia: true,
  }),
};
