import { createStore } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { ADVERT_MESSAGES } from '@shared/messages/adverts';
import { advertApi } from '../../src-renderer/features/adverts/api';
import { articleApi } from '../../src-renderer/features/articles/api';
import { bridgeAtom } from '../../src-renderer/lib/bridge';
import { createEditorAtoms } from '../../src-renderer/features/content/editor-atoms';
import { pendingNoticesAtom } from '../../src-renderer/lib/notices';
import { chipsOf, type FilterDef } from '../../src-renderer/ui/FilterBar';
import { createFakeBridge } from './fake-bridge';

type Filters = { published?: boolean; countries?: number[] };
const defs: FilterDef<Filters>[] = [
  {
    kind: 'choice',
    key: 'published',
    label: 'Publication',
    options: [
      { label: 'Publiées', value: true },
      { label: 'Non publiées', value: false },
    ],
  },
  {
    kind: 'multi',
    key: 'countries',
    label: 'Pays',
    options: [
      { label: 'France', value: 72 },
      { label: 'Espagne', value: 722 },
    ],
  },
];

describe('filter chips (§2.1)', () => {
  it('shows one chip per active value, each removing only itself', () => {
    expect(chipsOf<Filters>(defs, {})).toEqual([]);
    const chips = chipsOf<Filters>(defs, { published: false, countries: [72, 722] });
    expect(chips.map((chip) => chip.label)).toEqual(['Publication : Non publiées', 'Pays : France', 'Pays : Espagne']);
    expect(chips[0].remove({ published: false, countries: [72] })).toEqual({ published: undefined, countries: [72] });
    expect(chips[1].remove({ countries: [72, 722] })).toEqual({ countries: [722] });
    expect(chips[2].remove({ countries: [722] })).toEqual({ countries: undefined });
  });
});

describe('editor atoms (in-memory bridge)', () => {
  afterEach(() => vi.useRealTimers());

  function setup(kind: 'advert' | 'article') {
    const atoms = createEditorAtoms(`test.${kind}`, kind === 'advert' ? advertApi : articleApi);
    const fake = createFakeBridge();
    const store = createStore();
    store.set(bridgeAtom, fake.bridge);
    return { atoms, fake, store };
  }
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('refuses a save with the §5 messages joined, highlights the fields for 3 s, and calls nothing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { atoms, fake, store } = setup('advert');
    store.set(atoms.startNewAtom, { name: '', type: null });
    expect(await store.set(atoms.saveAtom)).toBeNull();
    expect(fake.calls).toEqual([]);
    expect(store.get(pendingNoticesAtom)).toEqual([
      { text: `${ADVERT_MESSAGES.advertNameRequired} / ${M.advertTypeRequired}`, kind: 'warning', durationMs: 3000 },
    ]);
    expect(store.get(atoms.highlightAtom)).toEqual(['name', 'type']);
    await vi.advanceTimersByTimeAsync(2999);
    expect(store.get(atoms.highlightAtom)).toEqual(['name', 'type']);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.get(atoms.highlightAtom)).toEqual([]);
  });

  it('creates a new advert, then saves changed audiences with the fields in one update call', async () => {
    const { atoms, fake, store } = setup('advert');
    store.set(atoms.startNewAtom, { name: 'Campagne', type: 'post' });
    const creating = store.set(atoms.saveAtom);
    await flush();
    expect(fake.calls[0].operation).toBe('adverts.create');
    await fake.answer(0, { ok: true, data: { id: 7, name: 'Campagne', type: 'post', published: false, _$audiences: [] } });
    expect((await creating)?.id).toBe(7);

    // Unchanged audiences: only the update.
    const plain = store.set(atoms.saveAtom);
    await flush();
    expect(fake.calls.map((call) => call.operation)).toEqual(['adverts.create', 'adverts.update']);
    await fake.answer(0, { ok: true, data: { id: 7, name: 'Campagne', type: 'post', published: false, _$audiences: [] } });
    await plain;

    store.set(atoms.patchAtom, { _$audiences: [{ id: 3, name: 'Cardiologues', roles: ['ROLE_EXPERT'] }] });
    const attaching = store.set(atoms.saveAtom);
    await flush();
    // One call, no attach: the audience ids beside the fields, the item's own audiences never in the advert body.
    expect(fake.calls.map((call) => call.operation)).toEqual(['adverts.create', 'adverts.update', 'adverts.update']);
    const body = fake.calls[2].input.body as { advert: Record<string, unknown>; audienceIds?: number[] };
    expect(body.audienceIds).toEqual([3]);
    expect(body.advert._$audiences).toBeUndefined();
    await fake.answer(0, { ok: false, status: 403, errorMsg: 'User not allowed' });
    expect(await attaching).toBeNull();
    expect(store.get(pendingNoticesAtom).at(-1)).toEqual({ text: 'User not allowed', kind: 'error', durationMs: 3000 });
  });

  it('publishes an article by its published property after saving it, with the spec’s success text', async () => {
    const { atoms, fake, store } = setup('article');
    const article = { id: 4, name: 'Dossier', type: 'post', published: false, _$audiences: [{ id: 1, name: 'A', roles: [], label: 'french' }] };
    const loading = store.set(atoms.loadAtom, 4);
    await flush();
    await fake.answer(0, { ok: true, data: article });
    await flush();
    // The article's own audience criteria load beside it (§2.5): an Area makes it publishable.
    expect(fake.calls[1]).toEqual({ operation: 'articles.getAudience', input: { params: { id: 4 } } });
    await fake.answer(0, { ok: true, data: { audienceId: 9, criteria: [{ id: 3, label: 'Area', name: 'french' }] } });
    await loading;
    const publishing = store.set(atoms.publishAtom, { publish: true, updateDates: false });
    await flush();
    expect(fake.calls[2].operation).toBe('articles.update');
    await fake.answer(0, { ok: true, data: article });
    await flush();
    expect(fake.calls[3]).toEqual({ operation: 'articles.updateProperty', input: { params: { id: 4, prop: 'published' }, body: { value: true } } });
    await fake.answer(0, { ok: true, data: { ...article, published: true } });
    expect(await publishing).toBe(true);
    expect(store.get(pendingNoticesAtom).at(-1)).toEqual({ text: M.contentOnline, kind: 'success', durationMs: 3000 });
  });

  it('marks an unknown id as not found', async () => {
    const { atoms, fake, store } = setup('advert');
    const loading = store.set(atoms.loadAtom, 99);
    await flush();
    await fake.answer(0, { ok: false, status: 404, errorMsg: ADVERT_MESSAGES.advertNotFound });
    await loading;
    expect(store.get(atoms.statusAtom)).toBe('notFound');
    expect(store.get(pendingNoticesAtom)).toEqual([]);
  });
});
