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
const changedBy = (name: string) => new RegExp(`^${CONFLICT_MESSAGES.recordChanged('labProject', name, 'HH:MM').replace('HH:MM', '\\d{2}:\\d{2}')}$`);
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
});
