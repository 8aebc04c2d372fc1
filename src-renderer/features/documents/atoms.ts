import { atom } from 'jotai';
import type { FolderListing, StoredFile, StoredFolder } from '@shared/contract/storage';
import { notice } from '@shared/messages';
import { STORAGE_MESSAGES, STORAGE_NOTICES, storageError } from '@shared/messages/storage';
import { DOCUMENTS_ROOT, IMAGE_FORMATS, extensionOf } from '@shared/rules/storage';
import { apiAtom } from '../../lib/bridge';
import { raiseNoticeAtom } from '../../lib/notices';
import { uploadFileAtom } from '../../lib/uploads';

/** The storage browser (audiences-projects-tools.md §2 "Document storage browser", §4, §8, §9). */

export const currentFolderAtom = atom<string>(DOCUMENTS_ROOT);
currentFolderAtom.debugLabel = 'documents.currentFolder';

export const listingAtom = atom<FolderListing | null>(null);
listingAtom.debugLabel = 'documents.listing';

export const loadingAtom = atom(false);
loadingAtom.debugLabel = 'documents.loading';

/** Sub-folders of each folder already opened in the tree, by folder path. */
export const treeAtom = atom<Record<string, StoredFolder[]>>({});
treeAtom.debugLabel = 'documents.tree';

export const expandedAtom = atom<ReadonlySet<string>>(new Set([DOCUMENTS_ROOT]));
expandedAtom.debugLabel = 'documents.expanded';

export const selectedFileAtom = atom<StoredFile | null>(null);
selectedFileAtom.debugLabel = 'documents.selectedFile';

/** Other errors of the screen: error toasts of 3 s (spec §8: 2.5 to 3.5 s). */
const errorAtom = atom(null, (_get, set, errorMsg: string) => set(raiseNoticeAtom, notice(errorMsg, 'error', 3000)));
errorAtom.debugLabel = 'documents.error';

/** Opens a folder: its files in the list, its sub-folders in the tree. */
export const openFolderAtom = atom(null, async (get, set, folder: string) => {
  set(loadingAtom, true);
  try {
    const result = await get(apiAtom)('storage.list', { query: { folder } });
    if (!result.ok) return set(errorAtom, result.errorMsg);
    set(currentFolderAtom, result.data.folder);
    set(listingAtom, result.data);
    set(treeAtom, { ...get(treeAtom), [result.data.folder]: result.data.folders });
    set(expandedAtom, new Set([...get(expandedAtom), result.data.folder]));
    const selected = get(selectedFileAtom);
    if (selected && !result.data.files.some((file) => file.path === selected.path)) set(selectedFileAtom, null);
  } finally {
    set(loadingAtom, false);
  }
});
openFolderAtom.debugLabel = 'documents.openFolder';

export const toggleFolderAtom = atom(null, async (get, set, folder: string) => {
  const expanded = new Set(get(expandedAtom));
  if (expanded.has(folder) && get(treeAtom)[folder]) {
    expanded.delete(folder);
    set(expandedAtom, expanded);
    return;
  }
  await set(openFolderAtom, folder);
});
toggleFolderAtom.debugLabel = 'documents.toggleFolder';

const isImage = (name: string) =>
  (IMAGE_FORMATS as readonly string[]).includes(extensionOf(name)) || ['svg', 'tiff', 'tif', 'webp'].includes(extensionOf(name));

/** Upload into the open folder through main, with its progress; the folder is reloaded after. */
export const uploadDocumentAtom = atom(null, async (get, set) => {
  const folder = get(currentFolderAtom);
  const result = await set(uploadFileAtom, {
    operation: 'storage.uploadDocument',
    fields: { path: folder },
    label: folder.split('/').pop() ?? folder,
  });
  if (!result.ok) {
    set(raiseNoticeAtom, result.errorMsg === STORAGE_MESSAGES.uploadCancelled ? STORAGE_NOTICES.uploadCancelled : storageError(result.errorMsg));
    return;
  }
  if (!result.data) return;
  // « Image importé » for an image only; another document says it was a file (as its deletion does).
  set(raiseNoticeAtom, isImage(result.data.fileName) ? STORAGE_NOTICES.imageImported : STORAGE_NOTICES.fileImported);
  await set(openFolderAtom, folder);
});
uploadDocumentAtom.debugLabel = 'documents.upload';

/** Answers the field error, or null once the folder exists (an empty .keep, spec §4). */
export const createFolderAtom = atom(null, async (get, set, name: string): Promise<string | null> => {
  const trimmed = name.trim();
  if (!trimmed) return STORAGE_MESSAGES.folderNameRequired;
  if (!/^[\p{L}\p{N} _-]{1,100}$/u.test(trimmed)) return STORAGE_MESSAGES.folderNameInvalid;
  const parent = get(currentFolderAtom);
  const path = `${parent}/${trimmed}`;
  const result = await set(uploadFileAtom, { operation: 'storage.uploadDocument', fields: { path }, folderMarker: true, label: trimmed });
  if (!result.ok) {
    set(raiseNoticeAtom, storageError(result.errorMsg));
    return result.errorMsg;
  }
  await set(openFolderAtom, parent);
  return null;
});
createFolderAtom.debugLabel = 'documents.createFolder';

/** Deletes a file; the selection is reset and the folder reloaded (spec §4). */
export const deleteFileAtom = atom(null, async (get, set, file: StoredFile) => {
  const result = await get(apiAtom)('storage.deleteDocument', { body: { filePath: file.path } });
  if (!result.ok) {
    set(raiseNoticeAtom, storageError(result.errorMsg));
    return;
  }
  set(raiseNoticeAtom, isImage(file.name) ? STORAGE_NOTICES.imageDeleted : STORAGE_NOTICES.fileDeleted);
  set(selectedFileAtom, null);
  await set(openFolderAtom, get(currentFolderAtom));
});
deleteFileAtom.debugLabel = 'documents.deleteFile';
