import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { validateForSave } from '@shared/rules/advert-screens/save-checks';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The demo workspace is valid by the product's own rules (issue 53 item 4): every seeded record the editors save
 * (adverts, articles with their own audience, audiences, groups, projects) passes the editor's save checks and is
 * saved unchanged through the API, as the editor sends it.
 */

let server: TestServer;
let admin: string;
let csm: string;

async function demoSeeded(): Promise<void> {
  const count = async (statement: ReturnType<typeof sql>) =>
    Number(((await server.database.db.execute(statement)) as unknown as { rows: { n: number }[] }).rows[0].n);
  const until = async (done: () => Promise<boolean>, ms: number) => {
    for (const deadline = Date.now() + ms; Date.now() < deadline && !(await done());) await new Promise((resolve) => setTimeout(resolve, 300));
  };
  // The adverts, then the articles' own audiences, are written in the background once the population is (a
  // workspace without them fails the article test, at its message).
  await until(async () => (await count(sql`SELECT count(*)::int AS n FROM articles`)) > 0, 180_000);
  await until(
    async () =>
      (await count(sql`SELECT count(*)::int AS n FROM articles a WHERE NOT EXISTS (SELECT 1 FROM audiences o WHERE o.article_id = a.id)`)) === 0,
    20_000,
  );
}

beforeAll(async () => {
  server = await startTestServer({ config: { seedAudienceDemo: { users: 400, events: 0 }, pushIntervalMs: 0, autopublishIntervalMs: 0 } });
  admin = (await server.signIn(['ADMIN'])).accessToken.value;
  csm = (await server.signIn(['CSM', 'CSM_LEAD'])).accessToken.value;
  await demoSeeded();
}, 240_000);
afterAll(() => server?.close());

const call = async (method: string, path: string, token: string, body?: unknown) => {
  const answer = await server.request(method, path, { token, body });
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body;
};

it('saves every seeded advert unchanged, as the editor sends it', async () => {
  const { items } = await call('POST', '/adverts', csm, { limit: 1000 });
  expect(items.length).toBeGreaterThan(0);
  for (const row of items) {
    const advert = await call('GET', `/v2/advert/${row.id}`, csm);
    expect(validateForSave(advert, 'advert').messages, `${advert.name} ${JSON.stringify(validateForSave(advert, 'advert').messages)}`).toEqual([]);
    const { _$audiences: _audiences, ...input } = advert;
    await call('PUT', `/v2/advert/${row.id}`, csm, { advert: input, version: advert.version });
  }
});

it('saves every seeded article unchanged, its own audience holding an Area criterion', async () => {
  const listed = await call('POST', '/article/list', csm, { limit: 1000 });
  const items = listed.items ?? listed;
  expect(items.length).toBeGreaterThan(0);
  for (const row of items) {
    const article = await call('GET', `/article/${row.id}`, csm);
    const { criteria } = await call('GET', `/article/${row.id}/audience`, csm);
    expect(validateForSave({ ...article, _$criteria: criteria }, 'article').messages, `${article.name} ${article.type}`).toEqual([]);
    const { _$audiences: _audiences, ...input } = article;
    await call('PUT', `/article/${row.id}`, csm, { article: input, version: article.version });
    const byLabel: Record<string, number[]> = {};
    for (const node of criteria) (byLabel[node.label] ??= []).push(node.id);
    await call('PUT', `/article/${row.id}/audience`, csm, { criteria: byLabel });
  }
});

it('saves every seeded audience, group and project unchanged', async () => {
  const audiences = await call('GET', '/audiences?limit=500', csm);
  const audienceRows = audiences.items ?? audiences;
  expect(audienceRows.length).toBeGreaterThan(0);
  for (const row of audienceRows) {
    const audience = await call('GET', `/audience/${row.id}`, csm);
    const body = { name: audience.name, type: audience.type, area: audience.area, isInCatalog: audience.isInCatalog };
    await call('PUT', `/audience/${row.id}`, csm, { ...body, ...(audience.version != null ? { version: audience.version } : {}) });
  }
  const groups = await call('GET', '/v2/groups?limit=1000', admin);
  for (const row of groups.items ?? groups) {
    await call('PUT', `/v2/group/${row.id}`, admin, { name: row.name, ...(row.version != null ? { version: row.version } : {}) });
  }
  const projects = await call('POST', '/projects', csm, {});
  expect(projects.items.length).toBeGreaterThan(0);
  for (const row of projects.items) {
    const project = await call('GET', `/project/${row.id}`, csm);
    const { id, name, clientName, keyAccount, actor, status, actionCode, version } = project;
    await call('PUT', '/project', csm, { id, name, clientName, keyAccount, actor, status, actionCode, ...(version != null ? { version } : {}) });
  }
});
