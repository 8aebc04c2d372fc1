import type { Handlers } from '../../../operations';
import type { ServerContext } from '../../../context';
import { contract, type MultipartSpec } from '@shared/contract';
import type { storageOperations } from '@shared/contract/storage';
import { STORAGE_MESSAGES } from '@shared/messages/storage';
import { isImportsKey } from '@shared/rules/imports';
import { DOCUMENTS_ROOT, checkFolder, checkKey, isWithin } from '@shared/rules/storage';
import { HttpError } from '../../../errors';
import type { StorageAdapter, StoredObject } from '../../../storage/adapter';
import { checkDocumentUrl, isDocumentKey, signedDocumentUrl } from '../../../storage/document-urls';
import { keyOfMediaUrl, sendMedia } from '../../../storage/media';
import { receiveFile } from '../../../storage/multipart';

export type StorageHandlers = Pick<Handlers, keyof typeof storageOperations>;
type DocumentHandlers = Pick<Handlers, 'storage.list' | 'storage.uploadDocument' | 'storage.deleteDocument' | 'storage.media'>;

/** A folder of the storage browser from user input: safe, and under assets/clients. */
function documentsFolder(folder: string | undefined): string {
  const checked = checkFolder(folder ?? DOCUMENTS_ROOT);
  if (!checked.ok) throw new HttpError(400, STORAGE_MESSAGES.unsafeKey);
  const key = checked.key || DOCUMENTS_ROOT;
  if (!isWithin(key, DOCUMENTS_ROOT)) throw new HttpError(400, STORAGE_MESSAGES.outsideDocuments);
  return key;
}

export function storageHandlers(context: ServerContext, storage: StorageAdapter): DocumentHandlers {
  const publicUrl = context.config.storage?.publicUrl;
  // Documents are never at the public address (STORAGE_PUBLIC_URL, a CDN or the bucket): always this server's
  // /cdn/ with a signed, expiring link (storage/document-urls.ts).
  const describe = (object: StoredObject) => ({
    name: object.key.split('/').pop()!,
    path: object.key,
    url: signedDocumentUrl(context.tokens, object.key, context.clock.now()),
    size: object.size,
    updatedAt: object.updatedAt,
  });

  return {
    'storage.list': async ({ query }) => {
      const folder = documentsFolder(query.folder);
      const content = await storage.list(folder);
      return {
        folder,
        folders: content.folders.map((path) => ({ name: path.split('/').pop()!, path })),
        // The .keep markers only make folders exist: not shown as files.
        files: content.files.filter((file) => !file.key.endsWith('/.keep')).map(describe),
      };
    },

    'storage.uploadDocument': async ({ request }) =>
      receiveFile<{ path: string }, ReturnType<typeof describe> & { webpath: string }>(
        request,
        contract['storage.uploadDocument'].multipart as MultipartSpec,
        async (file) => {
          const folder = documentsFolder(file.fields.path);
          const key = `${folder}/${file.fileName}`;
          if (!checkKey(key).ok) throw new HttpError(400, STORAGE_MESSAGES.unsafeKey);
          const stored = describe(await storage.put(key, file.body, file.contentType));
          return { ...stored, webpath: stored.url };
        },
      ),

    'storage.deleteDocument': async ({ body }) => {
      // A media URL of ours, or a key; another site's URL is an image being previewed, not a stored file.
      const fromUrl = /^(https?:|blob:|data:|\/)/i.test(body.filePath) ? keyOfMediaUrl(body.filePath, publicUrl) : body.filePath;
      if (fromUrl === null) throw new HttpError(400, STORAGE_MESSAGES.cannotDeletePreview);
      const checked = checkKey(fromUrl);
      if (!checked.ok) throw new HttpError(400, STORAGE_MESSAGES.unsafeKey);
      if (!isWithin(checked.key, DOCUMENTS_ROOT) || checked.key === DOCUMENTS_ROOT) throw new HttpError(400, STORAGE_MESSAGES.outsideDocuments);
      if (!(await storage.delete(checked.key))) throw new HttpError(404, STORAGE_MESSAGES.fileNotFound);
      return { deleted: checked.key };
    },

    'storage.media': async ({ request, reply, query }) => {
      const raw = (request.params as { '*'?: string })['*'] ?? '';
      const checked = checkKey(raw);
      if (!checked.ok) throw new HttpError(404, STORAGE_MESSAGES.fileNotFound);
      // CSV lists of the population import are never served (docs/imports.md): read only by the import's own calls.
      if (isImportsKey(checked.key)) throw new HttpError(404, STORAGE_MESSAGES.fileNotFound);
      if (isDocumentKey(checked.key)) {
        // Checked before looking the file up: the answer says nothing of whether it exists.
        const verdict = checkDocumentUrl(context.tokens, checked.key, query, context.clock.now());
        if (verdict !== 'valid')
          throw new HttpError(403, verdict === 'expired' ? STORAGE_MESSAGES.documentLinkExpired : STORAGE_MESSAGES.documentLinkRequired);
      }
      const cache = isDocumentKey(checked.key) ? 'private' : query.d ? 'immutable' : 'short';
      if (!(await sendMedia(reply, storage, checked.key, cache))) throw new HttpError(404, STORAGE_MESSAGES.fileNotFound);
      return reply as never;
    },
  };
}
