import { z } from 'zod';
import { access } from '../roles';
import { DOCUMENT_FORMATS, DOCUMENT_MAX_BYTES, DOCUMENTS_ROOT, MAX_KEY_LENGTH } from '../rules/storage';
import { defineOperation } from './define';

/** Who browses the document storage (spec §6: CSM and CONTENT_CREATOR; ADMIN passes any-of). */
const storageUsers = access.anyOf('CSM', 'CONTENT_CREATOR');

const keyText = z.string().max(MAX_KEY_LENGTH);

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
export type Uploaded = z.infer<typeof uploadedSchema>;

export const documentUploadFieldsSchema = z.strictObject({
  /** The folder, under assets/clients (spec §7); '' or the root itself for the root. */
  path: keyText.default(DOCUMENTS_ROOT),
});

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
    body: z.strictObject({ filePath: z.string().min(1).max(4096) }),
    response: z.object({ deleted: z.string() }),
  }),
  'storage.media': defineOperation({
    method: 'GET',
    path: '/cdn/*',
    summary: 'Serves a stored file (the "CDN"): type from its bytes, nosniff, sandboxed, long cache with d',
    access: access.public,
    query: z.object({ d: z.string().max(40).optional() }),
    response: z.unknown(),
  }),
};
