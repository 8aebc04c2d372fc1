import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import type { Group } from '@shared/contract/audiences/groups';
import { bridgeAtom } from '../../src-renderer/lib/bridge';
import {
  deletedAudiencesAtom,
  historyAtoms,
  loadDeletedAudiencesAtom,
  restoreDeletedAudienceAtom,
} from '../../src-renderer/features/audiences/history/audience-history';
import { pendingNoticesAtom } from '../../src-renderer/lib/notices';
import * as editor from '../../src-renderer/features/groups/atoms/editor';
import * as accounts from '../../src-renderer/features/test-accounts/atoms';
import { createFakeBridge } from './fake-bridge';

function setup() {
  const fake = createFakeBridge();
  const store = createStore();
  store.set(bridgeAtom, fake.bridge);
  return { fake, store };
}

const group: Group = {
  id: 7,
  name: 'Appétence',
  label: 'OrGroup',
  relationships: [
    {
      id: 1,
      source: 7,
      target: 3,
      node: { id: 3, label: 'Feed', name: 'Cardiologie' },
      type: 'AND',
      kind: 'required',
      event: null,
      caping: '2',
      action: null,
    },
  ],
  labels: ['Feed'],
  audiencesCount: 0,
  updatedAt: 1,
};
const entry = (id: number, action: string) => ({
  id,
  subjectKind: 'audience',
  subjectId: 12,
  action,
  operation: 'audiences.delete',
  accountName: 'Alice Admin',
  accountId: 1,
  at: 0,
  name: 'Cardiologues',
  changes: { fields: [], added: [], removed: [], changed: [] },
});

describe('group editor atoms (in-memory bridge)', () => {
  it('searches with the group-page rules, pre-selects documents, adds once, saves every member', async () => {
    const { fake, store } = setup();
    const loading = store.set(editor.loadGroupAtom, { label: 'OrGroup', id: 7 });
    await fake.answer(0, { ok: true, data: group });
    await loading;
    expect(store.get(editor.groupNameAtom)).toBe('Appétence');
    expect(store.get(editor.groupDirtyAtom)).toBe(false);

    store.set(editor.searchLabelAtom, 'Document');
    store.set(editor.searchTermAtom, ' guide ');
    const searching = store.set(editor.runSearchAtom, new AbortController().signal);
    expect(fake.calls[1]).toEqual({
      operation: 'nodes.search',
      input: { query: { term: 'guide', limit: 100, isGroup: 'true', groupId: 7, label: 'Document' } },
    });
    await fake.answer(0, {
      ok: true,
      data: [
        { id: 5, label: 'Document', name: 'Guide A' },
        { id: 6, label: 'Document', name: 'Guide B' },
      ],
    });
    await searching;
    expect([...store.get(editor.searchSelectionAtom)]).toEqual([5, 6]);
    store.set(editor.toggleResultAtom, 6);
    store.set(editor.addSelectedAtom);
    expect(store.get(editor.groupMembersAtom).map((m) => m.node.id)).toEqual([3, 5]);
    expect(store.get(editor.searchResultsAtom).map((n) => n.id)).toEqual([6]);
    expect(store.get(editor.groupDirtyAtom)).toBe(true);

    // Any label: Feed, Document, App first; members already there are left out.
    store.set(editor.searchLabelAtom, undefined);
    const again = store.set(editor.runSearchAtom, new AbortController().signal);
    expect(fake.calls[2].input.query).toMatchObject({ limit: 25 });
    await fake.answer(0, {
      ok: true,
      data: [
        { id: 9, label: 'Specialty', name: 'Guide spé' },
        { id: 8, label: 'App', name: 'Guide app' },
        { id: 5, label: 'Document', name: 'Guide A' },
        { id: 4, label: 'Feed', name: 'Guide feed' },
      ],
    });
    await again;
    expect(store.get(editor.searchResultsAtom).map((n) => n.label)).toEqual(['Feed', 'App', 'Specialty']);
    expect(store.get(editor.searchSelectionAtom).size).toBe(0);

    const saving = store.set(editor.saveGroupAtom);
    expect(fake.calls[3]).toEqual({
      operation: 'groups.update',
      input: {
        params: { id: 7 },
        body: {
          name: 'Appétence',
          relationships: [
            { node: { label: 'Feed', id: 3 }, type: 'AND', kind: 'required', event: null, caping: '2' },
            { node: { label: 'Document', id: 5 }, type: 'AND', kind: 'required', event: null, caping: null },
          ],
        },
      },
    });
    await fake.answer(0, { ok: false, status: 400, errorMsg: 'Un groupe ne peut pas se contenir lui-même' });
    await saving;
    expect(store.get(pendingNoticesAtom).at(-1)).toMatchObject({ kind: 'error', text: 'Un groupe ne peut pas se contenir lui-même' });
    // Nothing lost: the members stay as edited.
    expect(store.get(editor.groupMembersAtom)).toHaveLength(2);
  });
});

describe('test account atoms (in-memory bridge)', () => {
  it('does not search under 3 characters; a search its query aborted writes nothing; failures are 3.5 s error toasts', async () => {
    const { fake, store } = setup();
    store.set(accounts.accountTermAtom, 'ab');
    await store.set(accounts.searchAccountsAtom, new AbortController().signal);
    expect(fake.calls).toEqual([]);
    store.set(accounts.accountTermAtom, 'abc');
    // The page's query aborts the first search's signal when the term changes (lib/query.ts).
    const typedOver = new AbortController();
    const first = store.set(accounts.searchAccountsAtom, typedOver.signal);
    typedOver.abort();
    store.set(accounts.accountTermAtom, 'abcd');
    const second = store.set(accounts.searchAccountsAtom, new AbortController().signal);
    expect(fake.calls.map((c) => c.input.body)).toEqual([{ term: 'abc' }, { term: 'abcd' }]);
    await fake.answer(1, { ok: true, data: [{ id: 2, email: 'abcd@x.fr', name: '', relsCount: 4 }] });
    await fake.answer(0, { ok: true, data: [{ id: 1, email: 'abc@x.fr', name: '', relsCount: 1 }] });
    await Promise.all([first, second]);
    expect(store.get(accounts.accountResultsAtom)).toEqual([{ id: 2, email: 'abcd@x.fr', relsCount: 4 }]);

    const resetting = store.set(accounts.resetAccountAtom, 2);
    await fake.answer(0, { ok: false, status: 500, errorMsg: 'Erreur serveur' });
    await resetting;
    expect(store.get(pendingNoticesAtom).at(-1)).toEqual({ text: 'Erreur serveur', kind: 'error', durationMs: 3500 });
    const again = store.set(accounts.resetAccountAtom, 2);
    await fake.answer(0, { ok: true, data: { id: 2, relsCount: 0 } });
    await again;
    expect(store.get(pendingNoticesAtom).at(-1)).toEqual({ text: 'Réinitialisation des interactions effectuée', kind: 'success', durationMs: 3500 });
    expect(store.get(accounts.accountResultsAtom)[0].relsCount).toBe(0);
  });
});

describe('history atoms (in-memory bridge)', () => {
  it('loads a history; a restore says so and reloads, a refusal is an error toast', async () => {
    const { fake, store } = setup();
    const atoms = historyAtoms({ kind: 'audience', id: 12 });
    const loading = store.set(atoms.load);
    expect(fake.calls[0]).toEqual({ operation: 'audienceHistory.audience', input: { params: { id: 12 }, query: { limit: 50 } } });
    await fake.answer(0, { ok: true, data: { items: [entry(3, 'delete')], total: 1 } });
    await loading;
    expect(store.get(atoms.entries)?.map((e) => e.action)).toEqual(['delete']);

    const refused = store.set(atoms.restore);
    await fake.answer(0, { ok: false, status: 403, errorMsg: 'Accès refusé' });
    expect(await refused).toBe(false);
    expect(store.get(pendingNoticesAtom).at(-1)).toMatchObject({ kind: 'error', text: 'Accès refusé' });

    const restoring = store.set(atoms.restore);
    await fake.answer(0, { ok: true, data: { id: 12, name: 'Cardiologues', skipped: [] } });
    expect(store.get(pendingNoticesAtom).at(-1)).toMatchObject({ kind: 'success', text: 'Audience Cardiologues restaurée' });
    expect(fake.calls.at(-1)?.operation).toBe('audienceHistory.audience');
    await fake.answer(0, { ok: true, data: { items: [entry(4, 'restore'), entry(3, 'delete')], total: 2 } });
    expect(await restoring).toBe(true);
    expect(store.get(atoms.entries)?.map((e) => e.action)).toEqual(['restore', 'delete']);
  });

  it('lists deleted audiences and takes a restored one out', async () => {
    const { fake, store } = setup();
    const loading = store.set(loadDeletedAudiencesAtom);
    await fake.answer(0, { ok: true, data: { items: [entry(3, 'delete')], total: 1 } });
    await loading;
    const restoring = store.set(restoreDeletedAudienceAtom, 12);
    await fake.answer(0, { ok: true, data: { id: 12, name: 'Cardiologues', skipped: [] } });
    expect(await restoring).toBe(12);
    expect(store.get(deletedAudiencesAtom)).toEqual([]);
  });
});
