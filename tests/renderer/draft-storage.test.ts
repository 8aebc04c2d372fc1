import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import type { BackofficeBridge, IpcChannel, IpcResult } from '@shared/ipc';
import { bridgeAtom } from '../../src-renderer/lib/bridge';
import {
  draftsInMainAtom,
  draftsReadyFor,
  loadMainDraftsAtom,
  mainDraftsAtom,
  readDraft,
  removeDraftAtom,
  writeDraftAtom,
} from '../../src-renderer/lib/draft-storage';
import { sessionAtom } from '../../src-renderer/lib/session';

/**
 * The desktop side of local drafts (lib/draft-storage.ts): loaded once from main, read synchronously, each write
 * sent to main in order. The web host's side (localStorage) is driven in a real browser by
 * tests/e2e/drafts-editors.test.ts and drafts-offline.test.ts; main's store by tests/main/drafts.test.ts.
 */
function mainBridge(drafts: Record<string, unknown>, userId = 7) {
  const calls: { channel: IpcChannel; payload: unknown }[] = [];
  let answerList: (result: IpcResult<unknown>) => void = () => undefined;
  const bridge: BackofficeBridge = {
    invoke: ((channel: IpcChannel, payload?: unknown) => {
      calls.push({ channel, payload });
      if (channel === 'drafts:list') return new Promise<IpcResult<unknown>>((resolve) => (answerList = resolve));
      return Promise.resolve({ ok: true, data: {} });
    }) as BackofficeBridge['invoke'],
    on: () => () => undefined,
  };
  return { bridge, calls, answerList: () => answerList({ ok: true, data: { userId, drafts } }) };
}

const session = (userId: number) => ({ userId, roles: ['ADMIN' as const], expiresAt: '2030-01-01T00:00:00.000Z', persistent: true });
const stored = { values: { name: 'Brouillon' }, version: 2, savedAt: '2026-11-28T09:12:00.000Z' };
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('local drafts on the desktop (through main)', () => {
  it('offers nothing until the user’s drafts are loaded, then reads them without a call', async () => {
    const store = createStore();
    const fake = mainBridge({ 'advert:12': stored });
    store.set(bridgeAtom, fake.bridge);
    store.set(draftsInMainAtom, true);
    store.set(sessionAtom, session(7));
    const loading = store.set(loadMainDraftsAtom, 7);
    expect(draftsReadyFor(true, store.get(mainDraftsAtom), 7)).toBe(false);
    fake.answerList();
    await loading;
    expect(draftsReadyFor(true, store.get(mainDraftsAtom), 7)).toBe(true);
    expect(readDraft(true, store.get(mainDraftsAtom), 7, 'advert:12')).toEqual(stored);
    expect(readDraft(true, store.get(mainDraftsAtom), 7, 'advert:13')).toBeNull();
    // Once per sign-in: the same user again asks nothing more.
    await store.set(loadMainDraftsAtom, 7);
    expect(fake.calls.map((call) => call.channel)).toEqual(['drafts:list']);
  });

  it('writes to the loaded copy at once and to main in order; a removal of what main lacks sends nothing', async () => {
    const store = createStore();
    const fake = mainBridge({});
    store.set(bridgeAtom, fake.bridge);
    store.set(draftsInMainAtom, true);
    store.set(sessionAtom, session(7));
    const loading = store.set(loadMainDraftsAtom, 7);
    fake.answerList();
    await loading;

    store.set(removeDraftAtom, { userId: 7, recordKey: 'group:4' });
    store.set(writeDraftAtom, { userId: 7, recordKey: 'group:4', draft: stored });
    expect(readDraft(true, store.get(mainDraftsAtom), 7, 'group:4')).toEqual(stored);
    store.set(removeDraftAtom, { userId: 7, recordKey: 'group:4' });
    expect(readDraft(true, store.get(mainDraftsAtom), 7, 'group:4')).toBeNull();
    await settle();
    await settle();
    expect(fake.calls.slice(1)).toEqual([
      { channel: 'drafts:put', payload: { recordKey: 'group:4', draft: stored } },
      { channel: 'drafts:remove', payload: { recordKey: 'group:4' } },
    ]);
  });

  it('forgets the loaded copy at sign-out, and drops an answer that came after it', async () => {
    const store = createStore();
    const fake = mainBridge({ 'advert:12': stored });
    store.set(bridgeAtom, fake.bridge);
    store.set(draftsInMainAtom, true);
    store.set(sessionAtom, session(7));
    const loading = store.set(loadMainDraftsAtom, 7);
    store.set(sessionAtom, null);
    await store.set(loadMainDraftsAtom, null);
    fake.answerList();
    await loading;
    expect(store.get(mainDraftsAtom)).toBeNull();
    expect(draftsReadyFor(true, store.get(mainDraftsAtom), 7)).toBe(false);
  });
});
