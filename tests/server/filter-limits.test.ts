import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILTER_MAX_COMPARISONS, FILTER_MAX_PARAM_USES } from '@shared/rules/filter-language';
import { PUSH_CLAUSE_MAX } from '@shared/rules/push';
import { toBase64 } from '@shared/rules/laboratory';
import { FILTER_MAX_BOUND_VALUES } from '../../src-server/db/filter-sql';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The filter language's lists and parameters are bounded where the laboratory's tag queries and the push page's
 * security clause reach the server: a short text naming one long list parameter again and again is refused in
 * French before any SQL is built, by every operation taking a query, and the server keeps answering. PGlite, or
 * PostgreSQL with TEST_DATABASE_URL.
 */
let server: TestServer;
let sales: string;
let csm: string;
let lead: string;
let projectId: number;

const PANEL = ['NAME;SURNAME;GENDER;CRIT_01', 'Durand;Alice;F;1', 'Martin;Bob;M;2', 'Petit;Chloé;F;3', 'Roux;Denis;M;autre'].join('\r\n');
const tag = (query: string, params: object = {}) => ({ query: toBase64(query), params: toBase64(JSON.stringify(params)) });
/** `CRIT_01 in (:x, :x, …)`: `uses` times the list parameter x of `size` values (0 to 9 again and again: a short body). */
const repeated = (uses: number, size: number) =>
  tag(`CRIT_01 in (${Array.from({ length: uses }, () => ':x').join(', ')})`, { x: Array.from({ length: size }, (_, index) => index % 10) });

const TOO_MANY_PARAMS = `Le filtre utilise trop de paramètres (${FILTER_MAX_PARAM_USES} au plus).`;
const TOO_MANY_VALUES = `Le filtre compte trop de valeurs, listes des paramètres comprises (${FILTER_MAX_BOUND_VALUES} au plus).`;

beforeAll(async () => {
  server = await startTestServer();
  sales = (await server.signIn(['SALES'])).accessToken.value;
  const csmSession = await server.signIn(['CSM']);
  csm = csmSession.accessToken.value;
  lead = (await server.signIn(['CONTENT_CREATOR_LEAD'])).accessToken.value;
  const form = new FormData();
  form.append('projectName', 'Bornes');
  form.append('file', new Blob([PANEL]), 'panel.csv');
  const created = await fetch(`${server.url}/alphonse/project`, { method: 'POST', headers: { authorization: `Bearer ${sales}` }, body: form });
  projectId = ((await created.json()) as { id: number }).id;
  const granted = await server.request('PUT', '/alphonse/accounts', { token: sales, body: { projectId, userAccounts: [{ id: csmSession.userId }] } });
  expect(granted.status).toBe(200);
});
afterAll(() => server?.close());

describe('laboratory tag queries: lists and parameters bounded', () => {
  const count = (token: string, body: object) => server.request('POST', `/alphonse/project/${projectId}/tag/count`, { token, body });

  it("refuses the audit's body (2,000 uses of a 5,000-value list) from a SALES account, then counts the next query", async () => {
    const refused = await count(sales, repeated(2000, 5000));
    expect(refused.status).toBe(400);
    expect(refused.body.errorMsg).toBe(TOO_MANY_PARAMS);
    expect((await count(sales, tag("CRIT_01 in ('1', 3)"))).body).toEqual({ usersCount: 2 });
  });

  it('refuses a chain of more comparisons than the in-memory count passes over the panel for', async () => {
    const chain = (count: number) => Array.from({ length: count }, (_, index) => `CRIT_01 = ${index % 10}`).join(' or ');
    expect((await count(sales, tag(chain(FILTER_MAX_COMPARISONS)))).body).toEqual({ usersCount: 3 });
    const refused = await count(sales, tag(chain(1333)));
    expect(refused.status).toBe(400);
    expect(refused.body.errorMsg).toContain(`Le filtre compte trop de comparaisons (${FILTER_MAX_COMPARISONS} au plus)`);
  });

  it('refuses a read-only CSM of the Access list binding 500,000 values in 100 uses; a long list named once counts', async () => {
    const refused = await count(csm, repeated(FILTER_MAX_PARAM_USES, 5000));
    expect(refused.status).toBe(400);
    expect(refused.body.errorMsg).toBe(TOO_MANY_VALUES);
    expect((await count(csm, repeated(2, FILTER_MAX_BOUND_VALUES / 2))).body).toEqual({ usersCount: 3 });
    expect((await count(csm, repeated(3, FILTER_MAX_BOUND_VALUES / 2))).body.errorMsg).toBe(TOO_MANY_VALUES);
  });

  it('refuses the same through adding a tag and saving the project, and saves nothing', async () => {
    const fields = { type: 'Environnement', level: 'UNDERSTAND', content: '', linkTitle: '', link: '' };
    const added = await server.request('POST', `/alphonse/project/${projectId}/tag`, {
      token: sales,
      body: { projectId, type: 'Environnement', ...repeated(FILTER_MAX_PARAM_USES, 5000) },
    });
    expect(added.status).toBe(400);
    expect(added.body.errorMsg).toBe(TOO_MANY_VALUES);
    const saved = await server.request('PUT', `/alphonse/project/${projectId}`, {
      token: sales,
      body: {
        tags: [
          { ...fields, name: 'ok', ...tag('') },
          { ...fields, name: 'trop', ...repeated(2000, 5000) },
        ],
      },
    });
    expect(saved.status).toBe(400);
    expect(saved.body.errorMsg).toBe(TOO_MANY_PARAMS);
    expect((await server.request('GET', `/alphonse/project/${projectId}`, { token: sales })).body.tags).toEqual([]);
  });
});

describe('push security clause: lists bounded by the clause length, no parameter', () => {
  const where = (clause: string) => ({ area: 'french', professions: [], specialties: [''], titles: [''], os: [''], expert: 'all', clause });
  const countPush = (clause: string) => server.request('POST', '/push/count', { token: lead, body: { where: where(clause) } });

  it('counts the longest list a clause can hold and refuses a parameter named again and again, then keeps counting', async () => {
    const values = Array.from({ length: Math.floor((PUSH_CLAUSE_MAX - 20) / 4) }, (_, index) => String(index % 10)).join(',');
    const longest = `title in (${values})`;
    expect(longest.length).toBeLessThanOrEqual(PUSH_CLAUSE_MAX);
    expect((await countPush(longest)).status).toBe(200);
    const chain = Array.from({ length: Math.floor(PUSH_CLAUSE_MAX / 12) }, (_, index) => `title = ${index % 10}`).join(' or ');
    expect((await countPush(chain.slice(0, chain.lastIndexOf(' or ', PUSH_CLAUSE_MAX)))).status).toBe(200);
    const params = await countPush(`title in (${Array.from({ length: 300 }, () => ':x').join(',')})`);
    expect(params.status).toBe(400);
    expect(params.body).toMatchObject({ field: 'where.clause', errorMsg: TOO_MANY_PARAMS });
    expect((await countPush('')).status).toBe(200);
  });
});
