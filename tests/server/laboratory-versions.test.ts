import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFLICT_MESSAGES } from '@shared/messages/conflicts';
import { toBase64 } from '@shared/rules/laboratory';
import { accounts } from '../../src-server/db/schema';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Two SALES on one laboratory project (docs/architecture.md, "Versions and conflicts"): Save names the version it
 * was based on; a stale one writes nothing (neither the name nor the tags) and answers 409 naming who changed the
 * project and when, with the project as it is now. Without a version it stays last-write-wins.
 */

let server: TestServer;
const sales: { token: string; name: string }[] = [];
let projectId: number;

beforeAll(async () => {
  server = await startTestServer();
  for (let index = 0; index < 2; index += 1) {
    const session = await server.signIn(['SALES']);
    const [row] = await server.database.db.select({ name: accounts.name }).from(accounts).where(eq(accounts.email, session.email));
    sales.push({ token: session.accessToken.value, name: row.name });
  }
  const form = new FormData();
  form.append('projectName', 'Panel versions');
  form.append('file', new Blob(['NAME;SURNAME;GENDER;CRIT_01\r\nDurand;Alice;F;fort\r\nMartin;Bob;M;faible']), 'panel.csv');
  const response = await fetch(`${server.url}/alphonse/project`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sales[0].token}` },
    body: form,
  });
  projectId = ((await response.json()) as { id: number }).id;
});
afterAll(() => server?.close());

const as = (who: number, method: string, body?: unknown) =>
  server.request(method, `/alphonse/project/${projectId}`, { token: sales[who].token, body });
const changedBy = (name: string, record: 'labProject' | 'labTag' = 'labProject') =>
  new RegExp(`^${CONFLICT_MESSAGES.recordChanged(record, name, 'HH:MM').replace('HH:MM', '\\d{2}:\\d{2}')}$`);
const tagRoute = (who: number, method: string, body: unknown) =>
  server.request(method, `/alphonse/project/${projectId}/tag`, { token: sales[who].token, body });
type SentTag = { id: number; version: number; name: string } & Record<string, unknown>;
/** A tag as the page sends it back: every field but its project and count, with the version it was based on. */
const asSent = ({ projectId: _project, usersCount: _count, ...tag }: SentTag & { projectId?: number; usersCount?: number }) => tag;
const newTag = (name: string) => ({
  name,
  type: 'Environnement',
  level: 'SURPRISE',
  content: '',
  linkTitle: '',
  link: '',
  query: toBase64("CRIT_01 = 'fort'"),
  params: toBase64('{}'),
});

describe('laboratory project versions', () => {
  it('a project carries its version; a save based on it moves it on, one based on an older one is refused and writes nothing', async () => {
    const opened = await as(0, 'GET');
    expect(opened.status).toBe(200);
    const { version } = opened.body;
    expect(version).toEqual(expect.any(Number));

    const first = await as(0, 'PUT', { name: 'Panel du premier', tags: [newTag('Forts du premier')], version });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.version).toBe(version + 1);

    const second = await as(1, 'PUT', { name: 'Panel du second', tags: [newTag('Forts du second')], version });
    expect(second.status).toBe(409);
    expect(second.body.errorMsg).toMatch(changedBy(sales[0].name));
    expect(second.body.conflict).toMatchObject({ version: version + 1, updatedBy: sales[0].name });
    expect(second.body.conflict.current).toMatchObject({ name: 'Panel du premier', version: version + 1 });
    expect(second.body.conflict.current.tags.map((tag: { name: string }) => tag.name)).toEqual(['Forts du premier']);

    const now = await as(1, 'GET');
    expect(now.body).toMatchObject({ name: 'Panel du premier', version: version + 1 });
    expect(now.body.tags.map((tag: { name: string }) => tag.name)).toEqual(['Forts du premier']);
  });

  it('a save without a version stays last-write-wins, and still moves the version on', async () => {
    const before = (await as(1, 'GET')).body.version;
    const saved = await as(1, 'PUT', { name: 'Panel sans version' });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ name: 'Panel sans version', version: before + 1 });
    const stale = await as(0, 'PUT', { name: 'Trop tard', version: before });
    expect(stale.status).toBe(409);
    expect(stale.body.errorMsg).toMatch(changedBy(sales[1].name));
  });

  it("a tag carries its own version: a save or delete of it based on an older one is refused with the tag's message", async () => {
    const added = await tagRoute(0, 'POST', { projectId, type: 'Efficacité', name: 'Tag partagé' });
    expect(added.status).toBe(201);
    const tag = added.body as SentTag;
    expect(tag.version).toEqual(expect.any(Number));

    // The first saves the tag (without the project's version: only the tag's is checked).
    const first = await as(0, 'PUT', { tags: [{ ...asSent(tag), name: 'Tag du premier' }] });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const saved = first.body.tags.find((row: SentTag) => row.id === tag.id);
    expect(saved).toMatchObject({ name: 'Tag du premier', version: tag.version + 1 });

    // The second, on the tag as it was: refused, nothing written, who and when named, the project as it is now.
    const second = await as(1, 'PUT', { name: 'Ne doit pas passer', tags: [{ ...asSent(tag), name: 'Tag du second' }] });
    expect(second.status).toBe(409);
    expect(second.body.errorMsg).toMatch(changedBy(sales[0].name, 'labTag'));
    expect(second.body.conflict).toMatchObject({ version: tag.version + 1, updatedBy: sales[0].name });
    expect(second.body.conflict.current.tags.find((row: SentTag) => row.id === tag.id)).toMatchObject({ name: 'Tag du premier' });
    const now = await as(1, 'GET');
    expect(now.body.name).not.toBe('Ne doit pas passer');
    expect(now.body.tags.find((row: SentTag) => row.id === tag.id)).toMatchObject({ name: 'Tag du premier' });

    // A delete based on the old version is refused too; based on the current one it goes.
    const staleDelete = await tagRoute(1, 'DELETE', { tagId: tag.id, version: tag.version });
    expect(staleDelete.status).toBe(409);
    expect(staleDelete.body.errorMsg).toMatch(changedBy(sales[0].name, 'labTag'));
    const deleted = await tagRoute(1, 'DELETE', { tagId: tag.id, version: saved.version });
    expect(deleted.body).toEqual({ ok: true });
    // Gone: a save of it is 'not found', no conflict.
    const gone = await as(0, 'PUT', { tags: [{ ...asSent(saved), name: 'Trop tard' }] });
    expect(gone.status).toBe(404);
  });

  it('without a version a tag save stays last-write-wins; the granted reader is still refused every write', async () => {
    const added = (await tagRoute(0, 'POST', { projectId, type: 'Bon Usage', name: 'Sans version' })).body as SentTag;
    const { version: _version, ...unversioned } = asSent(added);
    const saved = await as(1, 'PUT', { tags: [{ ...unversioned, name: 'Écrasé' }] });
    expect(saved.status).toBe(200);
    expect(saved.body.tags.find((row: SentTag) => row.id === added.id)).toMatchObject({ name: 'Écrasé', version: added.version + 1 });

    const reader = await server.signIn(['CSM']);
    const [readerRow] = await server.database.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, reader.email));
    await server.request('PUT', '/alphonse/accounts', { token: sales[0].token, body: { projectId, userAccounts: [{ id: readerRow.id }] } });
    const token = reader.accessToken.value;
    expect((await server.request('GET', `/alphonse/project/${projectId}`, { token })).status).toBe(200);
    const current = saved.body.tags.find((row: SentTag) => row.id === added.id) as SentTag;
    const write = await server.request('PUT', `/alphonse/project/${projectId}`, { token, body: { tags: [asSent(current)] } });
    expect(write.status).toBe(403);
    const remove = await server.request('DELETE', `/alphonse/project/${projectId}/tag`, {
      token,
      body: { tagId: added.id, version: current.version },
    });
    expect(remove.status).toBe(403);
    const add = await server.request('POST', `/alphonse/project/${projectId}/tag`, { token, body: { projectId, type: 'Bon Usage' } });
    expect(add.status).toBe(403);
  });
});
