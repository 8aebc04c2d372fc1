import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { bridgeAtom } from '../../src-renderer/lib/bridge';
import { sessionAtom } from '../../src-renderer/lib/session';
import {
  clearProjectFiltersAtom,
  loadProjectsAtom,
  loadProjectsCsmAtom,
  projectsFiltersAtom,
  projectsHasMoreAtom,
  projectsItemsAtom,
  projectsTermAtom,
} from '../../src-renderer/features/projects/list-atoms';
import { createFakeBridge } from './fake-bridge';

const page = (ids: number[]) => ({ ok: true as const, data: { items: ids.map((id) => ({ id, name: `Projet ${id}`, targets: [] })) } });
const range = (from: number, count: number) => Array.from({ length: count }, (_, index) => from + index);

function setup(userId: number) {
  const fake = createFakeBridge();
  const store = createStore();
  store.set(bridgeAtom, fake.bridge);
  store.set(sessionAtom, { userId, roles: ['CSM'], expiresAt: '2026-12-31T00:00:00Z', persistent: true });
  return { fake, store };
}

describe('projects list atoms (Jotai store, in-memory bridge)', () => {
  it('starts on the current CSM, asks 8 then 25, and stops after a page that is not full', async () => {
    const { fake, store } = setup(3);
    const csm = store.set(loadProjectsCsmAtom);
    await fake.answer(0, {
      ok: true,
      data: {
        csm: [
          { id: 2, name: 'Autre' },
          { id: 3, name: 'Camille' },
        ],
      },
    });
    await csm;
    expect(store.get(projectsFiltersAtom)).toEqual({ keyAccount: [3] });

    const first = store.set(loadProjectsAtom, 'reset');
    expect(fake.calls[1]).toEqual({
      operation: 'projects.list',
      input: { body: { orderBy: 'id', order: 'DESC', keyAccount: [3], skip: 0, limit: 8 } },
    });
    await fake.answer(0, page(range(1, 8)));
    await first;
    expect(store.get(projectsHasMoreAtom)).toBe(true);

    const more = store.set(loadProjectsAtom, 'more');
    expect((fake.calls[2].input.body as { skip: number; limit: number }).skip).toBe(8);
    expect((fake.calls[2].input.body as { skip: number; limit: number }).limit).toBe(25);
    await fake.answer(0, page([8, ...range(9, 3)]));
    await more;
    expect(store.get(projectsItemsAtom).map((item) => item.id)).toEqual(range(1, 11));
    expect(store.get(projectsHasMoreAtom)).toBe(false);
    await store.set(loadProjectsAtom, 'more');
    expect(fake.calls).toHaveLength(3);
  });

  it('leaves the CSM filter empty for a user who is not a CSM, and Clear All empties filters and term', async () => {
    const { fake, store } = setup(9);
    const csm = store.set(loadProjectsCsmAtom);
    await fake.answer(0, { ok: true, data: { csm: [{ id: 3, name: 'Camille' }] } });
    await csm;
    expect(store.get(projectsFiltersAtom)).toEqual({});
    store.set(projectsFiltersAtom, { type: ['post'] });
    store.set(projectsTermAtom, 'cardio');
    store.set(clearProjectFiltersAtom);
    expect(store.get(projectsFiltersAtom)).toEqual({});
    expect(store.get(projectsTermAtom)).toBe('');
  });

  it('keeps the newest answer when an older one arrives last', async () => {
    const { fake, store } = setup(9);
    const older = store.set(loadProjectsAtom, 'reset');
    store.set(projectsTermAtom, 'derm');
    const newer = store.set(loadProjectsAtom, 'reset');
    await fake.answer(1, page([42]));
    await fake.answer(0, page(range(1, 8)));
    await Promise.all([older, newer]);
    expect(store.get(projectsItemsAtom).map((item) => item.id)).toEqual([42]);
  });
});
