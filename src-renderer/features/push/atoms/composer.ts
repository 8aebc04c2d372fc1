import { atom } from 'jotai';
import { emptyPushForm, type PushForm } from '../form';
import { pushCounterAtom, pushCurrentAtom } from './campaigns';

/**
 * The notification being written (platform.md §4). It has no server save of its own: sending is the only call, and
 * what is typed meanwhile is kept by its local draft (lib/local-drafts.ts), so the offline queue has nothing to hold.
 */

export type PushErrors = Partial<Record<keyof PushForm, string>>;

export const pushFormAtom = atom<PushForm>(emptyPushForm());
pushFormAtom.debugLabel = 'push.form';

/**
 * What the form is compared with for its local draft (docs/architecture.md, "Versions and conflicts"): the empty
 * form, then the one last sent. A notification has no version: its draft is never stale.
 */
export const pushSentFormAtom = atom<PushForm>(emptyPushForm());
pushSentFormAtom.debugLabel = 'push.sentForm';

/** Field messages, French, next to their field. */
export const pushErrorsAtom = atom<PushErrors>({});
pushErrorsAtom.debugLabel = 'push.errors';

/** A send in flight: Send waits for its answer. */
export const pushBusyAtom = atom(false);
pushBusyAtom.debugLabel = 'push.busy';

/**
 * Leaving the page: the next visit starts from an empty form (what was typed is in the local draft) and no count;
 * a campaign still sending is found again when it opens.
 */
export const resetPushComposerAtom = atom(null, (_get, set) => {
  set(pushFormAtom, emptyPushForm());
  set(pushSentFormAtom, emptyPushForm());
  set(pushErrorsAtom, {});
  set(pushBusyAtom, false);
  set(pushCounterAtom, null);
  set(pushCurrentAtom, null);
});
resetPushComposerAtom.debugLabel = 'push.resetComposer';
