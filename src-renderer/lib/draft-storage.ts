import { atom, useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import type { StoredDraft } from '@shared/drafts';
import type { BackofficeBridge } from '@shared/ipc';
import { runsInDesktop } from '../bridge';
import { bridgeAtom } from './bridge';
import { sessionAtom } from './session';

/**
 * Where local drafts live (docs/architecture.md, "Versions and conflicts"): the desktop app hands them to main,
 * which keeps them in its own store (src-main/services/drafts.ts); the web host keeps them in the browser's
 * localStorage. Either way the editors read synchronously: on the desktop, from the user's drafts loaded once
 * after sign-in into `mainDraftsAtom`, which each write updates before main is told.
 */

const PREFIX = 'backoffice.draft.';
const storageKey = (userId: number, recordKey: string) => `${PREFIX}${userId}.${recordKey}`;

/** A stored value that has a draft's shape; anything else (edited by hand, an older format) is no draft. */
function asDraft<T>(value: unknown): StoredDraft<T> | null {
  const draft = value as StoredDraft<T> | null;
  return draft && typeof draft === 'object' && typeof draft.savedAt === 'string' && draft.values ? draft : null;
}

function readBrowserDraft<T>(userId: number, recordKey: string): StoredDraft<T> | null {
  try {
    const raw = localStorage.getItem(storageKey(userId, recordKey));
    return raw ? asDraft<T>(JSON.parse(raw)) : null;
  } catch {
    // A draft that cannot be read is no draft (storage blocked or edited by hand).
    return null;
  }
}

function writeBrowserDraft(userId: number, recordKey: string, draft: StoredDraft<unknown>): void {
  try {
    localStorage.setItem(storageKey(userId, recordKey), JSON.stringify(draft));
  } catch {
    // A full or blocked storage: the edits stay on screen, only the copy is missing.
  }
}

const draftsInMainOverrideAtom = atom<boolean | null>(null);
draftsInMainOverrideAtom.debugLabel = 'drafts.inMainOverride';

/** Whether drafts go to main: in the desktop window (its preload's bridge), not on the web host. Tests set it. */
export const draftsInMainAtom = atom(
  (get) => get(draftsInMainOverrideAtom) ?? runsInDesktop(),
  (_get, set, inMain: boolean) => set(draftsInMainOverrideAtom, inMain),
);
draftsInMainAtom.debugLabel = 'drafts.inMain';

/** The signed-in user's drafts as main keeps them (desktop only); null until loaded, and once signed out. */
export const mainDraftsAtom = atom<{ userId: number; drafts: Record<string, StoredDraft> } | null>(null);
mainDraftsAtom.debugLabel = 'drafts.main';

/** Main's answers come in the order the calls were made: a removal never overtakes the write it follows. */
const sendQueues = new WeakMap<BackofficeBridge, Promise<unknown>>();
function sendInOrder(bridge: BackofficeBridge, send: (bridge: BackofficeBridge) => Promise<unknown>): void {
  const next = (sendQueues.get(bridge) ?? Promise.resolve()).then(() => send(bridge)).catch(() => undefined);
  sendQueues.set(bridge, next);
}

/**
 * Loads the user's drafts from main once per sign-in (desktop only); a sign-out forgets them here, main keeps them
 * for the next sign-in of the same user (a sign-out by expiry must not lose what was typed).
 */
export const loadMainDraftsAtom = atom(null, async (get, set, userId: number | null) => {
  if (!get(draftsInMainAtom)) return;
  if (userId === null) return set(mainDraftsAtom, null);
  if (get(mainDraftsAtom)?.userId === userId) return;
  const answer = await get(bridgeAtom).invoke('drafts:list');
  // Signed out or another user meanwhile: this answer is not theirs.
  if ((get(sessionAtom)?.userId ?? null) !== userId) return;
  // Main could not answer: the editors still write new drafts, only the older ones are not offered this time.
  set(mainDraftsAtom, { userId, drafts: answer.ok && answer.data.userId === userId ? answer.data.drafts : {} });
});

/** Whether `userId`'s drafts can be read now: at once in the browser, once loaded from main on the desktop. */
export const draftsReadyFor = (inMain: boolean, loaded: { userId: number } | null, userId: number | null): boolean =>
  userId !== null && (!inMain || loaded?.userId === userId);

export function readDraft<T>(
  inMain: boolean,
  loaded: { userId: number; drafts: Record<string, StoredDraft> } | null,
  userId: number,
  recordKey: string,
) {
  if (!inMain) return readBrowserDraft<T>(userId, recordKey);
  return loaded?.userId === userId && Object.hasOwn(loaded.drafts, recordKey) ? asDraft<T>(loaded.drafts[recordKey]) : null;
}

type DraftAddress = { userId: number; recordKey: string };

/** Keeps one record's draft: in the browser, or in the loaded copy at once and in main right after. */
export const writeDraftAtom = atom(null, (get, set, { userId, recordKey, draft }: DraftAddress & { draft: StoredDraft<unknown> }) => {
  if (!get(draftsInMainAtom)) return writeBrowserDraft(userId, recordKey, draft);
  const loaded = get(mainDraftsAtom);
  if (loaded?.userId === userId) set(mainDraftsAtom, { userId, drafts: { ...loaded.drafts, [recordKey]: draft } });
  // A refusal (too large, store full) leaves the edits on screen, as a full browser storage does.
  sendInOrder(get(bridgeAtom), (bridge) => bridge.invoke('drafts:put', { recordKey, draft }));
});

export const removeDraftAtom = atom(null, (get, set, { userId, recordKey }: DraftAddress) => {
  if (!get(draftsInMainAtom)) return localStorage.removeItem(storageKey(userId, recordKey));
  const loaded = get(mainDraftsAtom);
  if (loaded?.userId === userId) {
    // The loaded copy is main's for this user: a draft it does not hold needs no call (every editor open asks).
    if (!Object.hasOwn(loaded.drafts, recordKey)) return;
    set(mainDraftsAtom, { userId, drafts: Object.fromEntries(Object.entries(loaded.drafts).filter(([key]) => key !== recordKey)) });
  }
  sendInOrder(get(bridgeAtom), (bridge) => bridge.invoke('drafts:remove', { recordKey }));
});

/** Follows the session: the desktop loads the signed-in user's drafts from main once (mounted by SessionEvents). */
export function useMainDraftsLoader(): void {
  const userId = useAtomValue(sessionAtom)?.userId ?? null;
  const load = useSetAtom(loadMainDraftsAtom);
  useEffect(() => {
    void load(userId);
  }, [userId, load]);
}
