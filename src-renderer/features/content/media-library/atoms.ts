import { atom } from 'jotai';
import type { Library } from '@shared/contract/storage';
import { ADVERT_MEDIA_MESSAGES as M, ADVERT_MEDIA_NOTICES as N } from '@shared/messages/advert-media';
import { STORAGE_MESSAGES, STORAGE_NOTICES, storageError } from '@shared/messages/storage';
import { LIBRARY_LABELS } from '@shared/rules/storage';
import { apiAtom } from '../../../lib/bridge';
import { raiseNoticeAtom } from '../../../lib/notices';
import { uploadFileAtom } from '../../../lib/uploads';

export type LibraryLabel = (typeof LIBRARY_LABELS)[number];

/** The label as the contract spells it: the platform's 'Advert' / 'Article' are accepted too. */
export function libraryLabelOf(label: string): LibraryLabel | null {
  const lower = label.toLowerCase();
  return (LIBRARY_LABELS as readonly string[]).includes(lower) ? (lower as LibraryLabel) : null;
}

/** Whether a media URL is the product's own (served under /cdn/), the only ones that may be deleted (spec §5). */
export function isProductMedia(url: string): boolean {
  try {
    return new URL(url, window.location.href).pathname.startsWith('/cdn/');
  } catch {
    return false;
  }
}

/** The library the global modal shows (one modal at a time): null until loaded. */
export const mediaLibraryAtom = atom<Library | null>(null);
mediaLibraryAtom.debugLabel = 'mediaLibrary.library';

export const mediaLibraryLoadingAtom = atom(false);
mediaLibraryLoadingAtom.debugLabel = 'mediaLibrary.loading';

/**
 * Loads (making it on first use) the library of an advert or article; story items load theirs after load too. A
 * read the modal's query replaced (another owner, the modal closed) writes nothing: its answer would hide the
 * library now asked for (docs/architecture.md, "How a screen loads data").
 */
export const loadMediaLibraryAtom = atom(
  null,
  async (get, set, owner: { label: LibraryLabel; ownerId: number }, signal?: AbortSignal): Promise<Library | null> => {
    set(mediaLibraryLoadingAtom, true);
    try {
      const result = await get(apiAtom)('library.get', { params: { label: owner.label, id: owner.ownerId } });
      if (signal?.aborted) return null;
      if (!result.ok) {
        set(raiseNoticeAtom, storageError(result.errorMsg));
        return null;
      }
      set(mediaLibraryAtom, result.data);
      return result.data;
    } finally {
      // The newer run under way still loads.
      if (!signal?.aborted) set(mediaLibraryLoadingAtom, false);
    }
  },
);
loadMediaLibraryAtom.debugLabel = 'mediaLibrary.load';

/** Uploads one media into the shown library through the upload channel (progress, cancel; 10 MB). */
export const uploadLibraryMediaAtom = atom(null, async (get, set): Promise<string | null> => {
  const library = get(mediaLibraryAtom);
  if (!library) return null;
  const result = await set(uploadFileAtom, { operation: 'library.upload', fields: { libraryId: String(library.id) }, label: M.libraryTitle });
  if (!result.ok) {
    if (result.errorMsg === STORAGE_MESSAGES.uploadCancelled) set(raiseNoticeAtom, STORAGE_NOTICES.uploadCancelled);
    else set(raiseNoticeAtom, result.errorMsg === M.tooLarge ? N.tooLarge : storageError(result.errorMsg));
    return null;
  }
  if (!result.data) return null;
  const answer = result.data.answer as { webpaths: string[]; library: Library };
  set(mediaLibraryAtom, answer.library);
  set(raiseNoticeAtom, N.mediaUploaded);
  return answer.webpaths[0] ?? null;
});
uploadLibraryMediaAtom.debugLabel = 'mediaLibrary.upload';

/**
 * Removes a media from the library (and its file): only the product's own media (spec §5). While adverts show it
 * the server answers 409 naming them (docs/content.md, media in use): that text is answered (`inUse`) for the modal to ask
 * 'Supprimer quand même ?', and the delete is sent again with `force` once the user confirms.
 */
export const deleteLibraryMediaAtom = atom(null, async (get, set, url: string, force?: boolean): Promise<boolean | { inUse: string }> => {
  const library = get(mediaLibraryAtom);
  if (!library) return false;
  if (!isProductMedia(url)) {
    set(raiseNoticeAtom, N.cannotDeletePreview);
    return false;
  }
  const result = await get(apiAtom)('library.deleteItem', { params: { id: library.id }, body: force ? { item: url, force: true } : { item: url } });
  if (!result.ok && result.status === 409 && !force) return { inUse: result.errorMsg };
  if (!result.ok) {
    set(raiseNoticeAtom, result.errorMsg === M.cannotDeletePreview ? N.cannotDeletePreview : storageError(result.errorMsg));
    return false;
  }
  set(mediaLibraryAtom, result.data);
  set(raiseNoticeAtom, N.mediaDeleted);
  return true;
});
deleteLibraryMediaAtom.debugLabel = 'mediaLibrary.delete';
