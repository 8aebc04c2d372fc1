import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAB_MESSAGES } from '@shared/messages/laboratory';
import { MESSAGES } from '@shared/messages';
import { toBase64 } from '@shared/rules/laboratory';
import { appUsers } from '../../src-server/db/schema';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Laboratory projects: the panel read streamed from its CSV, tags whose queries count panel members,
 * the Access list and who may read and write. PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
describe('laboratory projects', () => {
  let server: TestServer;
  let sales: string;
  let csm: string;
  let csmId: number;

  beforeAll(async () => {
    server = await startTestServer();
    sales = (await server.signIn(['SALES'])).accessToken.value;
    const csmSession = await server.signIn(['CSM']);
    csm = csmSession.accessToken.value;
    csmId = csmSession.userId;
    await server.database.db.insert(appUsers).values([
      { externalId: 'ext-1', email: 'alice@example.org', professionId: 2, specialtyId: 6 },
      { externalId: 'ext-2', email: 'bob@example.org', professionId: 4, specialtyId: 26 },
    ]);
  });
  afterAll(() => server?.close());

  async function upload(token: string, fields: Record<string, string>, csv: string | Uint8Array, name = 'panel.csv') {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append('file', new Blob([typeof csv === 'string' ? csv : new Uint8Array(csv)]), name);
    const response = await fetch(`${server.url}/alphonse/project`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    return { status: response.status, body: (await response.json()) as any };
  }

  const PANEL = [
    'NAME;SURNAME;GENDER;CRIT_01;CRIT_02;EMAIL;externalId',
    'Durand;Alice;F;fort;IDF;;ext-1',
    'Martin;Bob;M;faible;IDF;BOB@example.org;',
    'Petit;Chloé;F;fort;Sud;;',
    'Roux;Denis;M;moyen;Sud;nobody@example.org;',
  ].join('\r\n');

  const tag = (query: string, params: object = {}) => ({ query: toBase64(query), params: toBase64(JSON.stringify(params)) });

  let projectId: number;

  it('creates a project from its panel, matches app users by externalId and e-mail, and lists it by name', async () => {
    const created = await upload(sales, { projectName: 'Panel cardio' }, PANEL);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name: 'Panel cardio', specialtyId: 26, pending: false, usersCount: 4, matchedCount: 2 });
    projectId = created.body.id;
    await upload(sales, { projectName: 'Autre panel', specialtyId: '6' }, 'name,surname,gender,crit_01\nA,B,F,x\n');
    const list = await server.request('POST', '/alphonse/projects', { token: sales, body: {} });
    expect(list.status).toBe(200);
    expect(list.body.map((p: any) => p.name)).toEqual(['Autre panel', 'Panel cardio']);
    const got = await server.request('GET', `/alphonse/project/${projectId}`, { token: sales });
    expect(got.body.fields).toEqual(expect.arrayContaining(['NAME', 'SURNAME', 'GENDER', 'CRIT_01', 'CRIT_02', 'profession', 'specialty']));
  });

  it("refuses a panel without the spec's columns, naming them, and keeps no project", async () => {
    const refused = await upload(sales, { projectName: 'Incomplet' }, 'NAME;SURNAME\nA;B\n');
    expect(refused.status).toBe(400);
    expect(refused.body.errorMsg).toBe('Missing columns : GENDER, CRIT_01');
    const list = await server.request('POST', '/alphonse/projects', { token: sales, body: { term: 'Incomplet' } });
    expect(list.body).toEqual([]);
  });

  it('refuses a panel with a malformed row, naming its line and why, and keeps nothing of it', async () => {
    const members = Array.from({ length: 50 }, (_, n) => `Nom${n + 1};Prénom${n + 1};F;fort`);
    const file = (rows: string[]) => ['NAME;SURNAME;GENDER;CRIT_01', ...rows].join('\r\n');
    const cases: [string, string[], string][] = [
      // Line 26 opens a quote it never closes: it would swallow the 25 members after it.
      [
        'Guillemet',
        members.map((row, n) => (n === 24 ? 'Nom25;"Prénom25;F;fort' : row)),
        LAB_MESSAGES.panelRowRefused(26, LAB_MESSAGES.panelUnclosedQuote),
      ],
      [
        'Courte',
        members.map((row, n) => (n === 9 ? 'Nom10;Prénom10;F' : row)),
        LAB_MESSAGES.panelRowRefused(11, LAB_MESSAGES.panelColumnCount(3, 4)),
      ],
      [
        'Longue',
        members.map((row, n) => (n === 49 ? 'Nom50;Prénom50;F;fort;en trop' : row)),
        LAB_MESSAGES.panelRowRefused(51, LAB_MESSAGES.panelColumnCount(5, 4)),
      ],
    ];
    expect(LAB_MESSAGES.panelRowRefused(26, LAB_MESSAGES.panelUnclosedQuote)).toBe(
      'Panel refusé, ligne 26 : guillemet non fermé (la cellule court sur plusieurs lignes) ; rien n’a été importé',
    );
    for (const [name, rows, message] of cases) {
      const refused = await upload(sales, { projectName: `Panel ${name}` }, file(rows));
      expect(refused.status, name).toBe(400);
      expect(refused.body.errorMsg).toBe(message);
      const list = await server.request('POST', '/alphonse/projects', { token: sales, body: { term: `Panel ${name}` } });
      expect(list.body).toEqual([]);
    }
    const whole = await upload(sales, { projectName: 'Panel entier' }, file(members));
    expect(whole.body).toMatchObject({ usersCount: 50 });
  });

  it('is pending while its rows arrive, with the list saying so, and ready after', async () => {
    const boundary = 'lab-boundary-0123';
    const encoder = new TextEncoder();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="projectName"\r\n\r\nEn cours\r\n`));
        controller.enqueue(
          encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.csv"\r\nContent-Type: text/csv\r\n\r\n`),
        );
        controller.enqueue(encoder.encode(`NAME;SURNAME;GENDER;CRIT_01\n${'A;B;F;x\n'.repeat(40_000)}`));
        await released;
        controller.enqueue(encoder.encode(`Z;Y;M;y\n\r\n--${boundary}--\r\n`));
        controller.close();
      },
    });
    const answer = fetch(`${server.url}/alphonse/project`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sales}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: 'half',
    } as RequestInit);
    await expect
      .poll(async () => (await server.request('POST', '/alphonse/projects', { token: sales, body: { term: 'En cours' } })).body, { timeout: 20_000 })
      .toEqual([expect.objectContaining({ name: 'En cours', pending: true })]);
    release();
    const created = await answer;
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ name: 'En cours', pending: false, usersCount: 40_001 });
  });

  it('reads a Windows-1252 file', async () => {
    const bytes = Uint8Array.from(
      [...'NAME;SURNAME;GENDER;CRIT_01\nLef']
        .map((c) => c.charCodeAt(0))
        .concat([0xe8, ...[...'vre;Zo'].map((c) => c.charCodeAt(0)), 0xe9, ...[...';F;x\n'].map((c) => c.charCodeAt(0))]),
    );
    const created = await upload(sales, { projectName: 'Latin' }, bytes);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const counted = await server.request('POST', `/alphonse/project/${created.body.id}/tag/count`, {
      token: sales,
      body: tag("NAME = 'Lefèvre' and SURNAME = 'Zoé'"),
    });
    expect(counted.body).toEqual({ usersCount: 1 });
  });

  it('counts tags over panel fields, matched app-user fields and params; a mistake names its position; values stay values', async () => {
    const count = async (query: string, params: object = {}) =>
      server.request('POST', `/alphonse/project/${projectId}/tag/count`, { token: sales, body: tag(query, params) });
    expect((await count("CRIT_01 = 'fort'")).body.usersCount).toBe(2);
    expect((await count('GENDER = :g and CRIT_02 in (:regions)', { g: 'M', regions: ['IDF', 'Sud'] })).body.usersCount).toBe(2);
    expect((await count('profession = 2 or specialty = 26')).body.usersCount).toBe(2);
    expect((await count("not CRIT_01 = 'fort'")).body.usersCount).toBe(2);
    expect((await count('')).body.usersCount).toBe(4);
    expect((await count("NAME = 'x'' or 1=1 --'")).body.usersCount).toBe(0);
    const wrong = await count("CRIT_01 = 'fort' and COLOR = 'red'");
    expect(wrong.status).toBe(400);
    expect(wrong.body.errorMsg).toMatch(/position 22/);
    const missing = await count('GENDER = :g');
    expect(missing.status).toBe(400);
    expect(missing.body.errorMsg).toContain(':g');
  });

  it('adds tags with their counts, saves them with Save, deletes one', async () => {
    const added = await server.request('POST', `/alphonse/project/${projectId}/tag`, {
      token: sales,
      body: { projectId, type: 'Efficacité', name: 'Forts', level: 'CONVINCE', ...tag("CRIT_01 = 'fort'") },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toMatchObject({ type: 'Efficacité', level: 'CONVINCE', usersCount: 2 });
    const blank = await server.request('POST', `/alphonse/project/${projectId}/tag`, { token: sales, body: { projectId, type: 'Bon Usage' } });
    expect(blank.body.usersCount).toBe(4);
    const saved = await server.request('PUT', `/alphonse/project/${projectId}`, {
      token: sales,
      body: {
        name: 'Panel cardiologie',
        tags: [
          { ...added.body, usersCount: undefined, projectId: undefined, ...tag("GENDER = 'F'") },
          {
            name: 'Nouveau',
            type: 'Environnement',
            level: 'SURPRISE',
            content: 'c',
            linkTitle: 'l',
            link: 'https://example.org',
            ...tag("CRIT_02 = 'Sud'"),
          },
        ].map(({ usersCount: _u, projectId: _p, ...rest }) => rest),
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.name).toBe('Panel cardiologie');
    expect(saved.body.tags.map((t: any) => [t.name, t.usersCount])).toEqual([
      ['Forts', 2],
      ['', 4],
      ['Nouveau', 2],
    ]);
    const badSave = await server.request('PUT', `/alphonse/project/${projectId}`, {
      token: sales,
      body: { tags: [{ name: 'x', type: 'Environnement', level: 'SURPRISE', content: '', linkTitle: '', link: '', ...tag('GENDER = ') }] },
    });
    expect(badSave.status).toBe(400);
    // The tag's link is opened by the app: a web address or one of its deeplinks only.
    for (const link of ['javascript:alert(1)', 'ftp://x', 'voir le site']) {
      const badLink = await server.request('PUT', `/alphonse/project/${projectId}`, {
        token: sales,
        body: { tags: [{ name: 'x', type: 'Environnement', level: 'SURPRISE', content: '', linkTitle: '', link, ...tag("GENDER = 'F'") }] },
      });
      expect(badLink.status, link).toBe(400);
      expect(badLink.body.errorMsg).toBe(LAB_MESSAGES.tagLinkInvalid);
    }
    const deleted = await server.request('DELETE', `/alphonse/project/${projectId}/tag`, { token: sales, body: { tagId: blank.body.id } });
    expect(deleted.body).toEqual({ ok: true });
    const again = await server.request('DELETE', `/alphonse/project/${projectId}/tag`, { token: sales, body: { tagId: blank.body.id } });
    expect(again.status).toBe(404);
  });

  it('Access: search from 3 characters without the accounts already there; a granted account reads, never writes', async () => {
    const { email } = await server.createAccount(['CONTENT_CREATOR'], 'Zélie Laboratoire');
    const found = await server.request('POST', '/alphonse/account/search', { token: sales, body: { term: 'zelie', projectId } });
    expect(found.body).toEqual([{ id: expect.any(Number), username: email }]);
    const short = await server.request('POST', '/alphonse/account/search', { token: sales, body: { term: 'ze', projectId } });
    expect(short.status).toBe(400);
    // Not granted: the CSM sees no project and cannot open this one.
    expect((await server.request('POST', '/alphonse/projects', { token: csm, body: {} })).body).toEqual([]);
    expect((await server.request('GET', `/alphonse/project/${projectId}`, { token: csm })).status).toBe(404);
    const set = await server.request('PUT', '/alphonse/accounts', {
      token: sales,
      body: { projectId, userAccounts: [{ id: found.body[0].id }, { id: csmId }] },
    });
    expect(set.body.map((a: any) => a.id).sort()).toEqual([found.body[0].id, csmId].sort());
    expect((await server.request('POST', '/alphonse/account/search', { token: sales, body: { term: 'zelie', projectId } })).body).toEqual([]);
    expect((await server.request('POST', '/alphonse/projects', { token: csm, body: {} })).body.map((p: any) => p.id)).toEqual([projectId]);
    expect((await server.request('GET', `/alphonse/project/${projectId}`, { token: csm })).status).toBe(200);
    const write = await server.request('PUT', `/alphonse/project/${projectId}`, { token: csm, body: { name: 'x' } });
    expect(write.status).toBe(403);
    expect(write.body.errorMsg).toBe(MESSAGES.userNotAllowed);
    await server.request('DELETE', '/alphonse/account', { token: sales, body: { projectId, accountId: csmId } });
    expect((await server.request('GET', `/alphonse/project/${projectId}`, { token: csm })).status).toBe(404);
  });

  it('deletes a project only when the body names it', async () => {
    const wrong = await server.request('DELETE', `/alphonse/project/${projectId}`, { token: sales, body: { name: 'autre' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errorMsg).toBe(LAB_MESSAGES.nameMismatch);
    const ok = await server.request('DELETE', `/alphonse/project/${projectId}`, { token: sales, body: { name: 'Panel cardiologie' } });
    expect(ok.body).toEqual({ ok: true });
    expect((await server.request('GET', `/alphonse/project/${projectId}`, { token: sales })).status).toBe(404);
  });

  it('loads a 100,000-row panel streamed and counts a tag over it', async () => {
    const lines = ['NAME,SURNAME,GENDER,CRIT_01,CRIT_02,CRIT_03'];
    for (let i = 0; i < 100_000; i += 1) lines.push(`N${i},S${i},${i % 2 ? 'M' : 'F'},${i % 3},${i % 5},${i % 7}`);
    const created = await upload(sales, { projectName: 'Grand panel' }, lines.join('\n'));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.usersCount).toBe(100_000);
    const counted = await server.request('POST', `/alphonse/project/${created.body.id}/tag/count`, {
      token: sales,
      body: tag("GENDER = 'F' and CRIT_01 in ('0', '1') and not CRIT_03 = 6"),
    });
    // i even, i % 3 in {0,1}, i % 7 != 6: counted over one period of 42.
    let expected = 0;
    for (let i = 0; i < 100_000; i += 1) if (i % 2 === 0 && i % 3 !== 2 && i % 7 !== 6) expected += 1;
    expect(counted.body).toEqual({ usersCount: expected });
    const deleted = await server.request('DELETE', `/alphonse/project/${created.body.id}`, { token: sales, body: { name: 'Grand panel' } });
    expect(deleted.body).toEqual({ ok: true });
  }, 120_000);
});
