import { atom } from 'jotai';
import { AUDIENCE_NOTICES } from '@shared/messages';
import type { AudienceType } from '@shared/rules/audiences';
import { apiAtom } from '../../../lib/bridge';
import { createLatestCall } from '../../../lib/latest-call';
import { raiseNoticeAtom } from '../../../lib/notices';
import { audienceConflictAtom } from './conflict';
import { draftAtom, fromAudience, setSavedDraftAtom } from './draft';

// Opening and closing the audience editor: a saved audience from the server, or a new one from the list.

/** 'missing': the address names no audience the editor can show (load failed, or 'new' not in memory). */
export const editorStatusAtom = atom<'idle' | 'loading' | 'ready' | 'missing'>('idle');
editorStatusAtom.debugLabel = 'audiences.editor.status';

/** A new audience started from the list's create menu, waiting for /audiences/new to open it. */
export const pendingNewAudienceAtom = atom<{ type: AudienceType } | null>(null);
pendingNewAudienceAtom.debugLabel = 'audiences.editor.pendingNew';

/** Only the latest open counts (lib/latest-call.ts): a late answer of an older open, or one after a close, is ignored. */
const openCall = createLatestCall('audiences.editor.openRequest', (get, id: number) => get(apiAtom)('audiences.get', { params: { id } }));

/** Opens /audiences/{id}: a saved audience from the server, or 'new' from the create menu. */
export const openAudienceAtom = atom(null, async (get, set, idParam: string) => {
  if (idParam === 'new') {
    const pending = get(pendingNewAudienceAtom);
    const current = get(draftAtom);
    if (current && current.id === null) return set(editorStatusAtom, 'ready');
    if (!pending) {
      // Spec §2: a new audience that is not in memory goes back to the list with a warning.
      set(raiseNoticeAtom, AUDIENCE_NOTICES.notSaved);
      set(draftAtom, null);
      return set(editorStatusAtom, 'missing');
    }
    // The pending audience stays until the list shows again: opening twice (React's strict mode) finds it still.
    set(setSavedDraftAtom, {
      id: null,
      name: '',
      type: pending.type,
      area: 'french',
      isInCatalog: false,
      relationships: [],
      adverts: [],
      version: null,
    });
    return set(editorStatusAtom, 'ready');
  }
  const id = Number(idParam);
  if (get(draftAtom)?.id === id) return set(editorStatusAtom, 'ready');
  set(editorStatusAtom, 'loading');
  set(draftAtom, null);
  const valid = Number.isInteger(id) && id > 0;
  if (!valid) set(openCall.cancelAtom);
  const result = valid ? await set(openCall.runAtom, id) : undefined;
  if (result === null) return; // overtaken by a newer open or a close
  if (!result?.ok) {
    set(raiseNoticeAtom, AUDIENCE_NOTICES.loadFailed);
    return set(editorStatusAtom, 'missing');
  }
  set(setSavedDraftAtom, fromAudience(result.data));
  set(editorStatusAtom, 'ready');
});
openAudienceAtom.debugLabel = 'audiences.editor.open';

export const closeAudienceAtom = atom(null, (_get, set) => {
  set(audienceConflictAtom, null);
  set(openCall.cancelAtom);
  set(setSavedDraftAtom, null);
  set(editorStatusAtom, 'idle');
});
closeAudienceAtom.debugLabel = 'audiences.editor.close';
