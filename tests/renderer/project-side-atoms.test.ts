import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import type { TargetComment } from '@shared/contract/projects/comments';
import type { Project } from '@shared/contract/projects/projects';
import { PROJECT_NOTICES } from '@shared/messages/projects';
import { defaultBriefingState } from '@shared/rules/project-comments';
import { bridgeAtom } from '../../src-renderer/lib/bridge';
import { pendingNoticesAtom } from '../../src-renderer/lib/notices';
import { sessionAtom } from '../../src-renderer/lib/session';
import { importEstimateIntoProjectAtom } from '../../src-renderer/features/projects/estimate-import-atoms';
import * as sidebar from '../../src-renderer/features/projects/sidebar/atoms';
import * as timeline from '../../src-renderer/features/projects/timeline/atoms';
import { createFakeBridge } from './fake-bridge';

function setup() {
  const fake = createFakeBridge();
  const store = createStore();
  store.set(bridgeAtom, fake.bridge);
  store.set(sessionAtom, { userId: 7, roles: ['CSM'], expiresAt: '2099-01-01T00:00:00Z', persistent: false });
  return { fake, store };
}

/** Lets the atom reach its next call. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const project: Project = {
  id: 3,
  name: 'Cardio HTA',
  clientName: 'Sanofa',
  keyAccount: { id: 7, name: 'Camille Martin' },
  actor: 'Laboratoire',
  actionCode: 'SANCARD26-1.',
  status: 'draft',
  estimateId: null,
  targets: [],
  comments: [{ id: 4, author: 7, authorName: 'Camille', content: 'Relancer', createdAt: 1, updatedAt: 1 }],
  briefing: null,
  isProjectCommented: true,
  createdAt: 1,
  version: 1,
};
const targetComment = (id: number, content: string): TargetComment => ({
  id,
  targetId: 11,
  author: 7,
  authorName: 'Camille',
  content,
  createdAt: 1,
  updatedAt: 1,
});

describe('project timeline atoms (in-memory bridge)', () => {
  it('a second debounced edit waits for the first save and updates the comment it created', async () => {
    const { fake, store } = setup();
    store.set(timeline.timelineTargetsAtom, [
      { id: 11, actionCode: 'A1', type: 'post', status: '2. en ligne', startDate: 0, endDate: null, comments: [] },
    ]);
    const first = store.set(timeline.saveTimelineCommentAtom, { targetId: 11, draft: 'Tournage' });
    const second = store.set(timeline.saveTimelineCommentAtom, { targetId: 11, draft: 'Tournage ok' });
    await settle();
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]).toEqual({ operation: 'targetComments.create', input: { body: { targetId: 11, content: 'Tournage' } } });
    expect(store.get(timeline.timelineSavingAtom)).toEqual([11]);
    await fake.answer(0, { ok: true, data: targetComment(40, 'Tournage') });
    await first;
    await settle();
    expect(fake.calls[1]).toEqual({ operation: 'targetComments.update', input: { params: { id: 40 }, body: { content: 'Tournage ok' } } });
    await fake.answer(0, { ok: true, data: targetComment(40, 'Tournage ok') });
    await second;
    expect(store.get(timeline.timelineTargetsAtom)![0].comments.map((c) => c.content)).toEqual(['Tournage ok']);
    expect(store.get(timeline.timelineSavingAtom)).toEqual([]);
    // Unchanged text: nothing sent.
    await store.set(timeline.saveTimelineCommentAtom, { targetId: 11, draft: 'Tournage ok ' });
    expect(fake.calls).toHaveLength(2);
  });
});

describe('project sidebar atoms (in-memory bridge)', () => {
  it('does not send an unchanged comment; sends an edited one', async () => {
    const { fake, store } = setup();
    expect(await store.set(sidebar.editProjectCommentAtom, { project, comment: project.comments[0], content: ' Relancer ' })).toBe(project);
    expect(fake.calls).toHaveLength(0);
    const editing = store.set(sidebar.editProjectCommentAtom, { project, comment: project.comments[0], content: 'Relancer lundi' });
    await settle();
    expect(fake.calls[0]).toEqual({ operation: 'comments.update', input: { params: { id: 4 }, body: { content: 'Relancer lundi' } } });
    await fake.answer(0, { ok: true, data: { ...project.comments[0], content: 'Relancer lundi', updatedAt: 2 } });
    expect((await editing)!.comments[0].content).toBe('Relancer lundi');
  });

  it('saves the template when nothing was typed and no briefing exists; updates an existing one', async () => {
    const { fake, store } = setup();
    store.set(sidebar.briefingEditingAtom, true);
    const creating = store.set(sidebar.saveBriefingAtom, project);
    await settle();
    expect(fake.calls[0]).toEqual({ operation: 'briefings.create', input: { body: { projectId: 3, content: defaultBriefingState() } } });
    await fake.answer(0, { ok: true, data: { id: 9, projectId: 3, content: defaultBriefingState(), updatedAt: 1 } });
    const withBriefing = (await creating)!;
    expect(withBriefing.briefing?.id).toBe(9);
    expect(store.get(sidebar.briefingEditingAtom)).toBe(false);

    // Nothing typed on a saved briefing: nothing sent.
    store.set(sidebar.briefingEditingAtom, true);
    expect(await store.set(sidebar.saveBriefingAtom, withBriefing)).toBe(withBriefing);
    expect(fake.calls).toHaveLength(1);

    const typed = { root: { type: 'root', children: [{ type: 'paragraph', children: [{ type: 'text', text: 'Cible', format: 1 }] }] } };
    store.set(sidebar.briefingEditingAtom, true);
    store.set(sidebar.briefingDraftAtom, typed);
    const updating = store.set(sidebar.saveBriefingAtom, withBriefing);
    await settle();
    expect(fake.calls[1]).toEqual({ operation: 'briefings.update', input: { params: { id: 9 }, body: { content: typed } } });
    await fake.answer(0, { ok: false, status: 403, errorMsg: 'User not allowed' });
    expect(await updating).toBeNull();
    expect(store.get(pendingNoticesAtom).at(-1)).toMatchObject({ text: 'User not allowed', kind: 'error', durationMs: 3000 });
    // A failed save keeps the edit open with its draft.
    expect(store.get(sidebar.briefingEditingAtom)).toBe(true);
    store.set(sidebar.cancelBriefingAtom);
    expect(store.get(sidebar.briefingDraftAtom)).toBeNull();
    expect(store.get(sidebar.briefingEditingAtom)).toBe(false);
  });
});

describe('estimate import atom (in-memory bridge)', () => {
  it("shows 'No estimate found with this ID' (error 2 s), then 'estimate imported with success!' (success 3 s)", async () => {
    const { fake, store } = setup();
    const missing = store.set(importEstimateIntoProjectAtom, { projectId: 3, estimateId: 'DEV-0000' });
    await settle();
    expect(fake.calls[0]).toEqual({ operation: 'estimates.importIntoProject', input: { params: { projectId: 3, estimateId: 'DEV-0000' } } });
    await fake.answer(0, { ok: false, status: 404, errorMsg: 'No estimate found with this ID' });
    expect(await missing).toBeNull();
    expect(store.get(pendingNoticesAtom).at(-1)).toEqual(PROJECT_NOTICES.estimateNotFoundOnImport);
    expect(PROJECT_NOTICES.estimateNotFoundOnImport).toMatchObject({ kind: 'error', durationMs: 2000 });

    const found = store.set(importEstimateIntoProjectAtom, { projectId: 3, estimateId: 'DEV-2026-0042' });
    await settle();
    await fake.answer(0, { ok: true, data: project });
    expect(await found).toBe(project);
    expect(store.get(pendingNoticesAtom).at(-1)).toEqual(PROJECT_NOTICES.estimateImported);
  });
});
