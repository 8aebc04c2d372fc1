import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { startTestServer, type TestServer } from '../helpers/server';

const INGEST_TOKEN = 'ingest-token-for-history-tests-0123';

let server: TestServer;
let admin: string;
let lead: string;
let leadName: string;

beforeAll(async () => {
  server = await startTestServer({ config: { ingestToken: INGEST_TOKEN } });
  admin = (await server.signIn(['ADMIN'])).accessToken.value;
  const leadAccount = await server.createAccount(['CSM_LEAD'], 'Léa Martin');
  leadName = 'Léa Martin';
  const signedIn = await server.request('POST', '/authenticate', { body: { username: leadAccount.email, password: 'correct-horse-battery' } });
  lead = signedIn.body.accessToken.value;
  const users = [1, 2, 3].map((n) => ({
    externalId: `h-${n}`,
    email: `h${n}@example.org`,
    professionId: n === 3 ? 4 : 2,
    specialtyId: 6,
    area: 'french',
  }));
  expect((await server.request('POST', '/population/users', { token: INGEST_TOKEN, body: users })).status).toBe(200);
  const events = [
    { eventId: 'h-e1', userExternalId: 'h-1', event: 'document.view', node: { label: 'Document', name: 'Guide asthme' }, at: '2026-02-01T10:00:00Z' },
  ];
  expect((await server.request('POST', '/population/events', { token: INGEST_TOKEN, body: events })).status).toBe(200);
});
afterAll(() => server?.close());

async function nodeId(label: string, term: string): Promise<number> {
  const found = await server.request('GET', `/search?term=${encodeURIComponent(term)}&label=${label}&isGroup=true`, { token: lead });
  expect(found.body.length, `${label} ${term}`).toBeGreaterThan(0);
  return found.body[0].id;
}
async function history(kind: 'audience' | 'group', id: number, token = lead) {
  const path = kind === 'audience' ? `/audience/${id}/history` : `/v2/group/${id}/history`;
  const response = await server.request('GET', path, { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { items: any[]; total: number };
}

describe('history of audiences and groups', () => {
  it('records who, when and what for create, update, relationships and delete; ADMIN restores', async () => {
    const medecin = await nodeId('Profession', 'Médecin');
    const pharmacien = await nodeId('Profession', 'Pharmacien');
    const before = Date.now();
    const created = await server.request('POST', '/audience', {
      token: lead,
      body: { name: 'Médecins', type: 'timeline', relationships: [{ node: { label: 'Profession', id: medecin } }] },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;

    let found = await history('audience', id);
    expect(found.total).toBe(1);
    expect(found.items[0]).toMatchObject({
      action: 'create',
      operation: 'audiences.create',
      accountName: leadName,
      subjectKind: 'audience',
      subjectId: id,
      name: 'Médecins',
    });
    expect(found.items[0].at).toBeGreaterThanOrEqual(before - 1000);
    expect(found.items[0].changes.added.map((r: { name: string }) => r.name)).toEqual(['Médecin']);

    await server.request('PUT', `/audience/${id}`, { token: lead, body: { name: 'Médecins et pharmaciens', area: 'english' } });
    await server.request('PUT', `/audience/${id}/relationships`, {
      token: lead,
      body: { relationships: [{ node: { label: 'Profession', id: pharmacien } }, { node: { label: 'Profession', id: medecin }, kind: 'not' }] },
    });
    // A write that changes nothing is not a change.
    await server.request('PUT', `/audience/${id}`, { token: lead, body: { name: 'Médecins et pharmaciens' } });
    found = await history('audience', id);
    expect(found.items.map((e: { action: string; operation: string }) => `${e.action} ${e.operation}`)).toEqual([
      'update audiences.setRelationships',
      'update audiences.update',
      'create audiences.create',
    ]);
    expect(found.items[1].changes.fields).toEqual([
      { field: 'name', from: 'Médecins', to: 'Médecins et pharmaciens' },
      { field: 'area', from: 'french', to: 'english' },
    ]);
    expect(found.items[0].changes.added.map((r: { name: string }) => r.name)).toEqual(['Pharmacien']);
    expect(found.items[0].changes.changed).toEqual([
      { from: expect.objectContaining({ name: 'Médecin', kind: 'required' }), to: expect.objectContaining({ name: 'Médecin', kind: 'not' }) },
    ]);

    // One relationship added through POST /v2/relationship.
    const documentId = await nodeId('Document', 'Guide asthme');
    await server.request('POST', '/v2/relationship', {
      token: lead,
      body: { source: id, node: { label: 'Document', id: documentId }, event: 'document.view', caping: '2' },
    });
    found = await history('audience', id);
    expect(found.items[0].operation).toBe('relationships.create');
    expect(found.items[0].changes.added).toEqual([
      expect.objectContaining({ label: 'Document', name: 'Guide asthme', event: 'document.view', caping: 2 }),
    ]);

    // Delete, then the deleted list (ADMIN only) and the restore (ADMIN only).
    expect((await server.request('DELETE', `/audience/${id}/del`, { token: lead })).status).toBe(200);
    found = await history('audience', id);
    expect(found.items[0]).toMatchObject({ action: 'delete', name: 'Médecins et pharmaciens' });
    expect((await server.request('GET', '/audiences/deleted', { token: lead })).status).toBe(403);
    const deleted = await server.request('GET', '/audiences/deleted', { token: admin });
    expect(deleted.body.items.map((e: { subjectId: number }) => e.subjectId)).toContain(id);

    const refused = await server.request('POST', `/audience/${id}/restore`, { token: lead });
    expect(refused.status).toBe(403);
    expect((await server.request('GET', `/audience/${id}`, { token: lead })).status).toBe(404);

    const restored = await server.request('POST', `/audience/${id}/restore`, { token: admin });
    expect(restored.status, JSON.stringify(restored.body)).toBe(201);
    expect(restored.body).toEqual({ id, name: 'Médecins et pharmaciens', skipped: [] });
    const back = await server.request('GET', `/audience/${id}`, { token: lead });
    expect(back.body).toMatchObject({ name: 'Médecins et pharmaciens', area: 'english', type: 'timeline', createdAt: created.body.createdAt });
    expect(back.body.relationships.map((r: { node: { name: string }; kind: string }) => `${r.node.name} ${r.kind}`).sort()).toEqual(
      ['Guide asthme required', 'Médecin not', 'Pharmacien required', 'english required'].sort(),
    );
    // The engine knows it again at once (size is answered from the engine).
    const size = await server.request('POST', '/audience/size', { token: admin, body: { audienceId: id } });
    expect(size.status).toBe(200);
    found = await history('audience', id);
    expect(found.items[0]).toMatchObject({ action: 'restore', operation: 'audienceHistory.restore' });
    expect(
      (await server.request('GET', '/audiences/deleted', { token: admin })).body.items.map((e: { subjectId: number }) => e.subjectId),
    ).not.toContain(id);

    const twice = await server.request('POST', `/audience/${id}/restore`, { token: admin });
    expect(twice.status).toBe(409);
    expect(twice.body.errorMsg).toBe(MESSAGES.historyAudienceExists);
    const never = await server.request('POST', `/audience/999999/restore`, { token: admin });
    expect(never.status).toBe(404);
    expect(never.body.errorMsg).toBe(MESSAGES.historyAudienceNotDeleted);
  });

  it('records group changes, and the audiences a deleted group leaves', async () => {
    const cardio = await nodeId('Specialty', 'Cardiologie').catch(() => 0);
    const specialty = cardio || (await nodeId('Specialty', ''));
    const group = await server.request('POST', '/v2/group', {
      token: lead,
      body: { name: 'Appétence', label: 'OrGroup', relationships: [{ node: { label: 'Specialty', id: specialty } }] },
    });
    expect(group.status).toBe(201);
    const groupId = group.body.id as number;
    await server.request('PUT', `/v2/group/${groupId}`, { token: lead, body: { name: 'Appétence cardio' } });
    const documentId = await nodeId('Document', 'Guide asthme');
    await server.request('POST', '/v2/relationships/documents', { token: lead, body: { groupId, documents: [documentId] } });
    const copy = await server.request('POST', `/group/${groupId}/duplicate`, { token: lead });

    let found = await history('group', groupId);
    expect(found.items.map((e: { action: string; operation: string }) => `${e.action} ${e.operation}`)).toEqual([
      'update groups.attachDocuments',
      'update groups.update',
      'create groups.create',
    ]);
    expect(found.items[1].changes.fields).toEqual([{ field: 'name', from: 'Appétence', to: 'Appétence cardio' }]);
    expect(found.items[0].changes.added.map((r: { label: string }) => r.label)).toEqual(['Document']);
    expect((await history('group', copy.body.id)).items[0]).toMatchObject({
      action: 'create',
      operation: 'groups.duplicate',
      name: 'Appétence cardio (copie)',
    });

    const audience = await server.request('POST', '/audience', {
      token: lead,
      body: { name: 'Avec groupe', relationships: [{ node: { label: 'OrGroup', id: groupId } }] },
    });
    const audienceId = audience.body.id as number;
    expect((await server.request('DELETE', `/v2/group/${groupId}`, { token: lead, body: { name: 'Appétence cardio' } })).status).toBe(200);
    found = await history('group', groupId);
    expect(found.items[0]).toMatchObject({ action: 'delete', operation: 'groups.delete', accountName: leadName });
    const audienceHistory = await history('audience', audienceId);
    expect(audienceHistory.items[0]).toMatchObject({ action: 'update', operation: 'groups.delete' });
    expect(audienceHistory.items[0].changes.removed).toEqual([expect.objectContaining({ label: 'OrGroup', name: 'Appétence cardio' })]);

    // Bulk delete records one row per audience; the restore skips the criterion whose node is gone.
    const second = await server.request('POST', '/audience', { token: lead, body: { name: 'Second' } });
    const bulk = await server.request('DELETE', '/audiences/del', { token: lead, body: { ids: [audienceId, second.body.id] } });
    expect(bulk.body).toEqual({ deleted: 2 });
    expect((await history('audience', second.body.id)).items[0].action).toBe('delete');
    expect((await history('audience', audienceId)).items[0].action).toBe('delete');
    // The last version before the deletion had no group left (the group's deletion removed it): its area alone
    // would match every user, so it is neither listed among the deleted audiences nor restored.
    const deleted = await server.request('GET', '/audiences/deleted?limit=100', { token: admin });
    expect(deleted.body.items.map((entry: { subjectId: number }) => entry.subjectId)).not.toContain(audienceId);
    const restored = await server.request('POST', `/audience/${audienceId}/restore`, { token: admin });
    expect(restored.status).toBe(409);
    expect(restored.body.errorMsg).toBe(MESSAGES.historyAudienceNoCriterion);
    expect((await server.request('GET', `/audience/${audienceId}`, { token: lead })).status).toBe(404);
  });

  it('a restore skips a criterion whose node is gone since the deletion', async () => {
    const group = await server.request('POST', '/v2/group', { token: lead, body: { name: 'Éphémère', label: 'AndGroup' } });
    const audience = await server.request('POST', '/audience', {
      token: lead,
      body: {
        name: 'Orpheline',
        relationships: [
          { node: { label: 'AndGroup', id: group.body.id } },
          { node: { label: 'Profession', id: await nodeId('Profession', 'Médecin') } },
        ],
      },
    });
    await server.request('DELETE', `/audience/${audience.body.id}/del`, { token: lead });
    await server.request('DELETE', `/v2/group/${group.body.id}`, { token: lead, body: { name: 'Éphémère' } });
    const restored = await server.request('POST', `/audience/${audience.body.id}/restore`, { token: admin });
    expect(restored.status).toBe(201);
    expect(restored.body.skipped).toEqual([expect.objectContaining({ label: 'AndGroup', name: 'Éphémère' })]);
  });

  it('never lists nor restores an audience that would come back with its area alone (matching every user)', async () => {
    const deleted = async () =>
      ((await server.request('GET', '/audiences/deleted?limit=100', { token: admin })).body as { items: { subjectId: number }[] }).items;
    // Created without a criterion (the editor's provisional audience of an e-mail list) and deleted.
    const bare = await server.request('POST', '/audience', { token: lead, body: { name: 'Sans critère' } });
    expect(bare.status).toBe(201);
    await server.request('DELETE', `/audience/${bare.body.id}/del`, { token: lead });
    expect((await deleted()).map((entry) => entry.subjectId)).not.toContain(bare.body.id);
    const refused = await server.request('POST', `/audience/${bare.body.id}/restore`, { token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.errorMsg).toBe(MESSAGES.historyAudienceNoCriterion);
    expect((await server.request('GET', `/audience/${bare.body.id}`, { token: lead })).status).toBe(404);

    // Its only criterion's node went since the deletion: listed, but the restore is refused and leaves nothing.
    const group = await server.request('POST', '/v2/group', { token: lead, body: { name: 'Seul critère', label: 'AndGroup' } });
    const lone = await server.request('POST', '/audience', {
      token: lead,
      body: { name: 'Critère disparu', relationships: [{ node: { label: 'AndGroup', id: group.body.id } }] },
    });
    await server.request('DELETE', `/audience/${lone.body.id}/del`, { token: lead });
    await server.request('DELETE', `/v2/group/${group.body.id}`, { token: lead, body: { name: 'Seul critère' } });
    const gone = await server.request('POST', `/audience/${lone.body.id}/restore`, { token: admin });
    expect(gone.status).toBe(409);
    expect(gone.body.errorMsg).toBe(MESSAGES.historyAudienceNoCriterion);
    expect((await server.request('GET', `/audience/${lone.body.id}`, { token: lead })).status).toBe(404);
  });

  it('refuses history to roles that do not edit audiences', async () => {
    const csm = (await server.signIn(['CSM'])).accessToken.value;
    expect((await server.request('GET', '/audience/1/history', { token: csm })).status).toBe(403);
    expect((await server.request('GET', '/v2/group/1/history', { token: csm })).status).toBe(403);
  });
});
