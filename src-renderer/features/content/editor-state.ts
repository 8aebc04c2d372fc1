import { atom, type Getter, type Setter } from 'jotai';
import { VALIDATION_HIGHLIGHT_MS } from '@shared/rules/advert-screens/save-checks';
import type { RetryOutcome } from '../../lib/offline';
import { sameData } from '../../lib/unsaved-changes';
import type { EditorConflict } from './editor-conflict-adoption';
import type { ContentApi, ContentItem } from './types';

type EditorStatus = 'idle' | 'loading' | 'notFound' | 'ready';

/** The atoms of one editor's state, each concern its own, labelled for the devtools. */
export function createEditorState(name: (part: string) => string) {
  const statusAtom = atom<EditorStatus>('idle');
  statusAtom.debugLabel = name('status');
  const draftAtom = atom<ContentItem | null>(null);
  draftAtom.debugLabel = name('draft');
  const savedAtom = atom<ContentItem | null>(null);
  savedAtom.debugLabel = name('saved');
  const pendingAtom = atom(false);
  pendingAtom.debugLabel = name('pending');
  const highlightAtom = atom<string[]>([]);
  highlightAtom.debugLabel = name('highlight');
  /** The draft as it was last loaded, saved or started: the draft differs from it while changes are unsaved. */
  const pristineAtom = atom<ContentItem | null>(null);
  pristineAtom.debugLabel = name('pristine');
  /** Whether the draft holds changes that are not saved (docs/content.md, unsaved changes: asked before leaving). */
  const dirtyAtom = atom((get) => {
    const draft = get(draftAtom);
    const pristine = get(pristineAtom);
    return draft !== null && pristine !== null && !sameData(draft, pristine);
  });
  dirtyAtom.debugLabel = name('dirty');
  /**
   * The last save refused because someone else changed the item (409): the message naming them, the fields both
   * changed still to decide, and the item as they left it. Null when there is none.
   */
  const conflictAtom = atom<EditorConflict | null>(null);
  conflictAtom.debugLabel = name('conflict');
  /** Bumped by each highlight, so an older timer does not clear a newer highlight. */
  const highlightSerialAtom = atom(0);
  highlightSerialAtom.debugLabel = name('highlightSerial');

  /** The message of each field the last refused save or publication named, until the field changes (fields.tsx). */
  const fieldErrorsAtom = atom<Record<string, string>>({});
  fieldErrorsAtom.debugLabel = name('fieldErrors');

  /** Highlights the fields 3 s (§5) and shows each one's message at it, when given. */
  const highlightFieldsAtom = atom(null, (get, set, fields: string[], errors: Record<string, string> = {}) => {
    const serial = get(highlightSerialAtom) + 1;
    set(highlightSerialAtom, serial);
    set(highlightAtom, fields);
    set(fieldErrorsAtom, errors);
    setTimeout(() => {
      if (get(highlightSerialAtom) === serial) set(highlightAtom, []);
    }, VALIDATION_HIGHLIGHT_MS);
  });
  highlightFieldsAtom.debugLabel = name('highlightFields');

  return {
    statusAtom,
    draftAtom,
    savedAtom,
    pendingAtom,
    highlightAtom,
    fieldErrorsAtom,
    pristineAtom,
    dirtyAtom,
    highlightFieldsAtom,
    conflictAtom,
  };
}

export type EditorState = ReturnType<typeof createEditorState>;
/** `quiet`: no 'Enregistré' toast; `onOutcome`: a retry of lib/offline.ts, told how it went (and never queued again). */
export type SaveOptions = { quiet?: boolean; onOutcome?: (outcome: RetryOutcome) => void };
export type ApiOf = (get: Getter) => ContentApi;

// An answer of the item's own calls does not carry the article's criteria: the ones saved last stay.
export function adopt({ savedAtom, draftAtom, pristineAtom }: EditorState, set: Setter, item: ContentItem, get?: Getter) {
  const kept = item._$criteria ?? get?.(savedAtom)?._$criteria;
  const adopted = kept ? { ...item, _$criteria: kept } : item;
  set(savedAtom, adopted);
  set(draftAtom, adopted);
  set(pristineAtom, adopted);
}
