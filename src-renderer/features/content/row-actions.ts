import { atom, type Atom, type WritableAtom } from 'jotai';
import type { ContentRow } from '@shared/contract/content';
import { ADVERT_SCREEN_NOTICES as N } from '@shared/messages/advert-screens';
import { notice } from '@shared/messages/notice';
import type { CallApi } from '../../bridge/api';
import { apiAtom } from '../../lib/bridge';
import { raiseNoticeAtom } from '../../lib/notices';
import type { ContentApi, ContentKind } from './types';

/** What the row actions need of a content list (lib/list.ts, createListAtoms). */
interface ContentListAtoms {
  filtersAtom: Atom<{ archived?: boolean }>;
  loadAtom: WritableAtom<unknown, [skip: number], Promise<boolean>>;
  replaceItemAtom: WritableAtom<unknown, [row: ContentRow], void>;
  removeItemAtom: WritableAtom<unknown, [id: number], void>;
  reloadAtom: WritableAtom<unknown, [], Promise<unknown>>;
}

export type ContentRowActions = ReturnType<typeof createRowActionAtoms>;

const refusedNotice = (result: { status: number; errorMsg: string }) => (result.status === 403 ? N.userNotAllowed : N.serverError(result.errorMsg));

/**
 * The row menu's actions of the advert and article lists (adverts-articles.md §2.1, §2.4), the same for both:
 * archive sets archived (the row leaves a list that hides archived items, else shows its new state), duplicate
 * reloads the first page, delete takes the row out. A refusal says why (403: not allowed, else the server's text).
 */
export function createRowActionAtoms(kind: ContentKind, makeApi: (call: CallApi) => ContentApi, list: ContentListAtoms) {
  const label = `${kind}s`;

  const archiveAtom = atom(null, async (get, set, row: ContentRow) => {
    const result = await makeApi(get(apiAtom)).updateProperty(row.id, 'archived', true);
    if (!result.ok) return set(raiseNoticeAtom, refusedNotice(result));
    set(raiseNoticeAtom, N.saved);
    // The default filter hides archived items: the row leaves the list, else it shows its new state.
    if (get(list.filtersAtom).archived === false) set(list.removeItemAtom, row.id);
    else set(list.replaceItemAtom, { ...row, archived: true });
  });
  archiveAtom.debugLabel = `${label}.archive`;

  const duplicateAtom = atom(null, async (get, set, id: number) => {
    const result = await makeApi(get(apiAtom)).duplicate(id);
    if (!result.ok) return set(raiseNoticeAtom, refusedNotice(result));
    set(raiseNoticeAtom, N.saved);
    await set(list.loadAtom, 0);
  });
  duplicateAtom.debugLabel = `${label}.duplicate`;

  /**
   * A delete sends the version the row was loaded with (docs/architecture.md, "Versions and conflicts"): an item
   * changed meanwhile is not deleted; the 409 says who changed it and the list shows it as it is now.
   */
  const deleteAtom = atom(null, async (get, set, row: Pick<ContentRow, 'id' | 'version'>) => {
    const result = await makeApi(get(apiAtom)).remove(row.id, row.version);
    if (result.ok) {
      set(raiseNoticeAtom, kind === 'advert' ? N.advertDeleted : N.articleDeleted);
      return set(list.removeItemAtom, row.id);
    }
    if (result.status !== 409) return set(raiseNoticeAtom, refusedNotice(result));
    set(raiseNoticeAtom, notice(result.errorMsg, 'warning'));
    await set(list.reloadAtom);
  });
  deleteAtom.debugLabel = `${label}.delete`;

  return { archiveAtom, duplicateAtom, deleteAtom };
}
