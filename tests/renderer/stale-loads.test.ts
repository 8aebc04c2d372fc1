import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import type { Library } from '@shared/contract/storage';
import { bridgeAtom } from '../../src-renderer/lib/bridge';
import { sessionAtom } from '../../src-renderer/lib/session';
import { loadMediaLibraryAtom, mediaLibraryAtom, mediaLibraryLoadingAtom } from '../../src-renderer/features/content/media-library/atoms';
import { inventoryAnchorAtom, inventoryRowsAtom, loadInventoryAtom, type InventoryRows } from '../../src-renderer/features/inventory/atoms';
import { createFakeBridge } from './fake-bridge';

/**
 * A load a screen's query replaced (another record, another period) writes nothing once its signal is aborted, even
 * when its answer comes after the newer one's (docs/architecture.md, "How a screen loads data").
 */
function setup() {
  const fake = createFakeBridge();
  const store = createStore();
  store.set(bridgeAtom, fake.bridge);
  store.set(sessionAtom, { userId: 7, roles: ['ADMIN'], expiresAt: '2099-01-01T00:00:00Z', persistent: false });
  return { fake, store };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('stale loads', () => {
  it('inventory: the previous period answering last does not replace the rows of the one on screen', async () => {
    const { fake, store } = setup();
    const january = new AbortController();
    store.set(inventoryAnchorAtom, { year: 2026, month: 1 });
    const first = store.set(loadInventoryAtom, january.signal);
    await settle();
    // The user moves on to the next period: the query aborts the first run and starts another.
    january.abort();
    store.set(inventoryAnchorAtom, { year: 2026, month: 7 });
    const second = store.set(loadInventoryAtom, new AbortController().signal);
    await settle();
    expect(fake.waiting).toBe(2);
    const july = [{ label: 'July' }] as unknown as InventoryRows;
    const jan = [{ label: 'January' }] as unknown as InventoryRows;
    // POST /inventory answers a page of categories and their count.
    await fake.answer(1, { ok: true, data: { items: july, total: 1 } });
    await fake.answer(0, { ok: true, data: { items: jan, total: 1 } });
    await Promise.all([first, second]);
    expect(store.get(inventoryRowsAtom)).toBe(july);
  });

  it('media library: another owner answering last does not replace the library asked for', async () => {
    const { fake, store } = setup();
    const advertOne = new AbortController();
    const first = store.set(loadMediaLibraryAtom, { label: 'advert', ownerId: 1 }, advertOne.signal);
    await settle();
    advertOne.abort();
    const second = store.set(loadMediaLibraryAtom, { label: 'advert', ownerId: 2 }, new AbortController().signal);
    await settle();
    const library = (ownerId: number) => ({ id: ownerId, label: 'advert', ownerId, items: [] }) as unknown as Library;
    await fake.answer(1, { ok: true, data: library(2) });
    await fake.answer(0, { ok: true, data: library(1) });
    expect(await first).toBeNull();
    await second;
    expect(store.get(mediaLibraryAtom)?.ownerId).toBe(2);
    expect(store.get(mediaLibraryLoadingAtom)).toBe(false);
  });
});
