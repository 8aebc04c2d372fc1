import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import type { Account } from '@shared/contract';
import { PLATFORM_NOTICES } from '@shared/messages';
import { bridgeAtom } from '../../src-renderer/lib/bridge';
import { createListAtoms } from '../../src-renderer/lib/list';
import { loadMetaAtom, metaAtom } from '../../src-renderer/lib/meta';
import { pendingNoticesAtom } from '../../src-renderer/lib/notices';
import { createFakeBridge } from './fake-bridge';

const account = (id: number): Account => ({
  id,
  uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
  name: `Compte ${id}`,
  nickname: '',
  username: `compte${id}@exemple.fr`,
  email: `compte${id}@exemple.fr`,
  roles: [],
});
const page = (ids: number[], total: number) => ({ ok: true as const, data: { items: ids.map(account), total } });

function setup() {
  const list = createListAtoms('admin.accounts.list', {
    debugLabel: 'test.accounts',
    pageSize: 2,
    toInput: ({ skip, limit, term }) => ({ query: { skip, limit, ...(term ? { term } : {}) } }),
  });
  const fake = createFakeBridge();
  const store = createStore();
  store.set(bridgeAtom, fake.bridge);
  return { list, fake, store };
}

describe('list atoms from createListAtoms (Jotai store, in-memory bridge)', () => {
  it('asks for the page with the term, replaces the rows on skip 0 and appends on skip > 0 without duplicates', async () => {
    const { list, fake, store } = setup();
    expect(store.get(list.totalAtom)).toBeNull();
    store.set(list.termAtom, '  chloé ');
    const first = store.set(list.loadAtom, 0);
    expect(store.get(list.loadingAtom)).toBe(true);
    expect(fake.calls[0]).toEqual({ operation: 'admin.accounts.list', input: { query: { skip: 0, limit: 2, term: 'chloé' } } });
    await fake.answer(0, page([1, 2], 3));
    await first;
    expect(store.get(list.itemsAtom).map((a) => a.id)).toEqual([1, 2]);
    expect(store.get(list.totalAtom)).toBe(3);
    expect(store.get(list.loadingAtom)).toBe(false);

    // Next page: appended; a row already shown (the list moved on the server) is not shown twice.
    const more = store.set(list.loadAtom, 2);
    await fake.answer(0, page([2, 3], 3));
    await more;
    expect(store.get(list.itemsAtom).map((a) => a.id)).toEqual([1, 2, 3]);

    // A new search: replaced.
    const again = store.set(list.loadAtom, 0);
    await fake.answer(0, page([3], 1));
    await again;
    expect(store.get(list.itemsAtom).map((a) => a.id)).toEqual([3]);
    expect(store.get(list.totalAtom)).toBe(1);
  });

  it('ignores an older answer that arrives after a newer one', async () => {
    const { list, fake, store } = setup();
    store.set(list.termAtom, 'a');
    const older = store.set(list.loadAtom, 0);
    store.set(list.termAtom, 'ab');
    const newer = store.set(list.loadAtom, 0);
    // The newer answer first, then the older, slower one.
    await fake.answer(1, page([7], 1));
    await fake.answer(0, page([1, 2], 40));
    await Promise.all([older, newer]);
    expect(store.get(list.itemsAtom).map((a) => a.id)).toEqual([7]);
    expect(store.get(list.totalAtom)).toBe(1);
    expect(store.get(list.loadingAtom)).toBe(false);
  });

  it("turns a failure into the store-error notice (error toast) with the server's text, keeping the rows", async () => {
    const { list, fake, store } = setup();
    const first = store.set(list.loadAtom, 0);
    await fake.answer(0, page([1, 2], 2));
    await first;
    const failed = store.set(list.loadAtom, 0);
    await fake.answer(0, { ok: false, status: 403, errorMsg: 'User not allowed' });
    await failed;
    expect(store.get(pendingNoticesAtom)).toEqual([{ ...PLATFORM_NOTICES.storeError, text: 'User not allowed' }]);
    expect(store.get(pendingNoticesAtom)[0]).toMatchObject({ kind: 'error', durationMs: 3000 });
    expect(store.get(list.itemsAtom).map((a) => a.id)).toEqual([1, 2]);
    expect(store.get(list.loadingAtom)).toBe(false);
  });

  it('reloads every row shown in one call, and patches or removes one row', async () => {
    const { list, fake, store } = setup();
    const first = store.set(list.loadAtom, 0);
    await fake.answer(0, page([1, 2], 3));
    await first;
    const more = store.set(list.loadAtom, 2);
    await fake.answer(0, page([3], 3));
    await more;
    const reload = store.set(list.reloadAtom);
    expect(fake.calls.at(-1)?.input.query).toEqual({ skip: 0, limit: 3 });
    await fake.answer(0, page([1, 3], 2));
    await reload;
    expect(store.get(list.itemsAtom).map((a) => a.id)).toEqual([1, 3]);
    store.set(list.replaceItemAtom, { ...account(3), name: 'Nouveau nom' });
    expect(store.get(list.itemsAtom)[1]?.name).toBe('Nouveau nom');
    store.set(list.removeItemAtom, 1);
    expect(store.get(list.itemsAtom).map((a) => a.id)).toEqual([3]);
    expect(store.get(list.totalAtom)).toBe(1);
  });

  it('pages an operation that answers no total: more while the last page was full, aborted answers dropped', async () => {
    const list = createListAtoms('targets.list', {
      debugLabel: 'test.targets',
      pageSize: 2,
      toInput: ({ skip, limit }) => ({ body: { skip, limit } }),
    });
    const fake = createFakeBridge();
    const store = createStore();
    store.set(bridgeAtom, fake.bridge);
    const target = (id: number) => ({ id, projectName: `Projet ${id}` });
    const rows = (ids: number[]) => ({ ok: true as const, data: { items: ids.map(target) } });

    expect(store.get(list.loadedOnceAtom)).toBe(false);
    const first = store.set(list.loadAtom, 0);
    await fake.answer(0, rows([1, 2]));
    expect(await first).toBe(true);
    expect(store.get(list.totalAtom)).toBeNull();
    expect(store.get(list.loadedOnceAtom)).toBe(true);
    expect(store.get(list.hasMoreAtom)).toBe(true);

    // A next page overtaken by a new search: its answer is dropped, the search's is kept.
    const more = store.set(list.loadAtom, 2);
    const search = store.set(list.loadAtom, 0);
    await fake.answer(1, rows([5]));
    await fake.answer(0, rows([3, 4]));
    expect(await more).toBe(false);
    expect(await search).toBe(true);
    expect(store.get(list.itemsAtom).map((row) => row.id)).toEqual([5]);
    expect(store.get(list.hasMoreAtom)).toBe(false);
  });

  it('tells onFirstPage when a first page replaced the rows, a search included, not for a next page or a dropped answer', async () => {
    const firstPages: string[] = [];
    const list = createListAtoms('admin.accounts.list', {
      debugLabel: 'test.firstPage',
      pageSize: 2,
      searchDebounceMs: 5,
      toInput: ({ skip, limit, term }) => ({ query: { skip, limit, ...(term ? { term } : {}) } }),
      onFirstPage: () => firstPages.push(store.get(list.termAtom)),
    });
    const fake = createFakeBridge();
    const store = createStore();
    store.set(bridgeAtom, fake.bridge);

    const first = store.set(list.loadAtom, 0);
    await fake.answer(0, page([1, 2], 5));
    await first;
    expect(firstPages).toEqual(['']);
    const more = store.set(list.loadAtom, 2);
    await fake.answer(0, page([3, 4], 5));
    await more;
    expect(firstPages).toEqual(['']);

    // Two pages asked in a row: only the one whose answer is kept counts.
    const dropped = store.set(list.loadAtom, 0);
    const kept = store.set(list.loadAtom, 0);
    await fake.answer(1, page([1], 1));
    await fake.answer(0, page([1, 2], 5));
    expect([await dropped, await kept]).toEqual([false, true]);
    expect(firstPages).toEqual(['', '']);

    // The search reloads the first page itself once typing pauses, and says so too.
    store.set(list.searchAtom, 'com');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.calls.at(-1)?.input.query).toEqual({ skip: 0, limit: 2, term: 'com' });
    await fake.answer(0, page([7], 1));
    expect(firstPages).toEqual(['', '', 'com']);
  });
});

describe('meta (lib/meta.ts)', () => {
  it('is asked once for callers at the same time and kept for the session', async () => {
    const fake = createFakeBridge();
    const store = createStore();
    store.set(bridgeAtom, fake.bridge);
    const meta = { audiences: [{ id: 1, name: 'Cardiologues' }], csm: [{ id: 3, name: 'Camille' }] };
    const layout = store.set(loadMetaAtom);
    const targets = store.set(loadMetaAtom);
    expect(fake.waiting).toBe(1);
    await fake.answer(0, { ok: true, data: meta });
    expect(await layout).toEqual(meta);
    expect(await targets).toEqual(meta);
    expect(await store.set(loadMetaAtom)).toEqual(meta);
    expect(fake.calls.filter((call) => call.operation === 'meta.get')).toHaveLength(1);
    expect(store.get(metaAtom)).toEqual(meta);
  });
});
