import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { StoredDraft } from '@shared/drafts';
import { draftsInMainAtom, draftsReadyFor, mainDraftsAtom, readDraft, removeDraftAtom, writeDraftAtom } from './draft-storage';
import { sessionAtom } from './session';
import { sameData } from './unsaved-changes';

/**
 * Unsaved edits kept on this machine (docs/architecture.md, "Versions and conflicts"): written within a second of
 * typing, removed once saved or reverted, offered back when the record is reopened after a crash, a forced quit or
 * a sign-out by expiry. Only the form's values are kept, per user: never a token or anything of the session. The
 * desktop app keeps them in main's store, the web host in the browser's storage (lib/draft-storage.ts). One
 * record's draft is a StoredDraft (src-shared/drafts.ts): the values, and the version and server copy they came from.
 */
export type LocalDraft<T> = StoredDraft<T>;

/** How long typing settles before the draft is written: well within the second the spec allows. */
export const DRAFT_WRITE_MS = 400;

/** The date an offer names, as staff read it (« Reprendre le brouillon du 28/11/2026 à 09:12 »). */
export function draftDate(savedAt: string): string {
  const at = new Date(savedAt);
  const day = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', day: '2-digit', month: '2-digit', year: 'numeric' }).format(at);
  const time = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' }).format(at);
  return `${day} à ${time}`;
}

export interface LocalDraftState<T> {
  /** A draft found when the record opened, not yet resumed nor discarded. */
  offer: LocalDraft<T> | null;
  /** Whether that draft was based on an older version than the record's (shown as a conflict). */
  stale: boolean;
  /** Takes the offer (answers its values) or drops it. */
  resume: () => T | null;
  discard: () => void;
}

/**
 * The local draft of one record: `recordKey` names it (`advert:12`, null while nothing is open), `values` are the
 * form's, `pristine` what the server holds, `version` the record's current version. While the values differ
 * from the pristine ones they are written (debounced); once equal again (saved, reverted) the draft goes.
 */
export function useLocalDraft<T>(recordKey: string | null, values: T | null, pristine: T | null, version: number | null): LocalDraftState<T> {
  const userId = useAtomValue(sessionAtom)?.userId ?? null;
  const inMain = useAtomValue(draftsInMainAtom);
  const mainDrafts = useAtomValue(mainDraftsAtom);
  const writeDraft = useSetAtom(writeDraftAtom);
  const removeDraft = useSetAtom(removeDraftAtom);
  // On the desktop the user's drafts come from main once after sign-in: until then nothing is offered nor written.
  const ready = draftsReadyFor(inMain, mainDrafts, userId);
  const [offer, setOffer] = useState<{ key: string; draft: LocalDraft<T> } | null>(null);
  const [checkedKey, setCheckedKey] = useState<string | null>(null);
  const previousKeyRef = useRef<string | null>(null);
  const fullKey = userId !== null && recordKey !== null ? `${userId}|${recordKey}` : null;

  // Once per opened record (when its values are in), while rendering: a stored draft that differs is offered.
  if (ready && fullKey !== null && userId !== null && recordKey !== null && pristine !== null && checkedKey !== fullKey) {
    const stored = readDraft<T>(inMain, mainDrafts, userId, recordKey);
    setCheckedKey(fullKey);
    setOffer(stored && !sameData(stored.values, pristine) ? { key: fullKey, draft: stored } : null);
  }

  // The same editor under another key: a new record just created under its id, whose first draft is saved.
  useEffect(() => {
    if (userId === null || recordKey === null) return;
    if (previousKeyRef.current !== null && previousKeyRef.current !== recordKey) removeDraft({ userId, recordKey: previousKeyRef.current });
    previousKeyRef.current = recordKey;
  }, [userId, recordKey, removeDraft]);

  const pendingOffer = offer && offer.key === fullKey ? offer.draft : null;
  const checked = checkedKey === fullKey;
  const dirty = values !== null && pristine !== null && !sameData(values, pristine);

  useEffect(() => {
    // Until the stored draft is resumed or discarded, it is the one kept: the form has not taken it yet.
    if (userId === null || recordKey === null || !checked || pendingOffer) return;
    if (!dirty) return removeDraft({ userId, recordKey });
    const timer = setTimeout(
      () => writeDraft({ userId, recordKey, draft: { values: values as T, base: pristine as T, version, savedAt: new Date().toISOString() } }),
      DRAFT_WRITE_MS,
    );
    return () => clearTimeout(timer);
  }, [userId, recordKey, checked, pendingOffer, dirty, values, pristine, version, writeDraft, removeDraft]);

  const resume = useCallback(() => {
    const taken = pendingOffer?.values ?? null;
    setOffer(null);
    return taken;
  }, [pendingOffer]);
  const discard = useCallback(() => {
    if (userId !== null && recordKey !== null) removeDraft({ userId, recordKey });
    setOffer(null);
  }, [userId, recordKey, removeDraft]);
  const stale = pendingOffer !== null && pendingOffer.version !== null && version !== null && pendingOffer.version < version;
  return { offer: pendingOffer, stale, resume, discard };
}
