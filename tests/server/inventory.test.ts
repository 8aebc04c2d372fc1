import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { INVENTORY_MESSAGES } from '@shared/messages/inventory';
import type { Role } from '@shared/roles';
import { ACTORS } from '@shared/rules/projects';
import { seedInventoryDemo } from '../../src-server/features/inventory/demo';
import { rows } from '../../src-server/db/rows';
import { ManualClock } from '../helpers/clock';
import { startTestServer, type TestServer } from '../helpers/server';

/** The inventory calls on a real server and database (PGlite, or PostgreSQL with TEST_DATABASE_URL). */

let server: TestServer;
let admin: string;
let lead: string;
let csm: string;
let csmId: number;

const day = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) / 1000;

async function upload(csv: string | Uint8Array, token = admin, name = 'inventaire.csv') {
  const form = new FormData();
  form.append('file', new Blob([typeof csv === 'string' ? new TextEncoder().encode(csv) : new Uint8Array(csv)]), name);
  const response = await fetch(`${server.url}/inventory/upload`, { method: 'PUT', headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: response.status, body: (await response.json()) as any };
}

/** POST /inventory, its rows as `body` (the answer is a page, `{ items, total }`: inventory-pages.test.ts). */
const list = async (body: Record<string, unknown>, token = lead) => {
  const answer = await server.request('POST', '/inventory', { token, body });
  return answer.status === 200 ? { ...answer, body: answer.body.items } : answer;
};
const capacityCount = async () => (await rows<{ n: number }>(server.database.db, sql`SELECT count(*)::int AS n FROM inventory_capacity`))[0].n;

/** A project with one target, created through the API, the target then changed to `fields`; answers their ids. */
async function bookTarget(fields: Record<string, unknown>): Promise<{ projectId: number; targetId: number }> {
  const project = await server.request('POST', '/project', {
    token: csm,
    body: { name: 'Campagne cardio', clientName: 'Labo', keyAccount: csmId, actor: ACTORS[0], lines: 1 },
  });
  expect(project.status, JSON.stringify(project.body)).toBeLessThan(300);
  const targetId = project.body.targets[0].id;
  const changed = await server.request('PUT', `/target/${targetId}/properties`, { token: csm, body: fields });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  return { projectId: project.body.id, targetId };
}

beforeAll(async () => {
  // Mid-January 2026: the export's 12 months start at 26/01.
  server = await startTestServer({ clock: new ManualClock(Date.UTC(2026, 0, 15, 12)) });
  admin = (await server.signIn(['ADMIN'])).accessToken.value;
  lead = (await server.signIn(['CSM_LEAD'])).accessToken.value;
  const signed = await server.signIn(['CSM']);
  csm = signed.accessToken.value;
  csmId = signed.userId;
});
afterAll(() => server?.close());

const FILE = ['Profession;Specialty;Nom;26/01;26/02;26/03', 'Médecin;1;Médecine générale;100 000;100000;90 000', '4;;Pharmacien;50 000;;50000'].join(
  '\r\n',
);

describe('inventory import (PUT /inventory/upload)', () => {
  it('refuses every role but ADMIN, writes nothing, then imports for ADMIN', async () => {
    for (const roles of [['CSM'], ['CSM_LEAD'], ['SALES'], ['CONTENT_CREATOR']] as Role[][]) {
      const token = (await server.signIn(roles)).accessToken.value;
      expect(await upload(FILE, token), roles.join('+')).toEqual({ status: 403, body: { errorMsg: MESSAGES.userNotAllowed } });
    }
    expect(await capacityCount()).toBe(0);
    expect(await upload(FILE)).toEqual({ status: 200, body: { rows: 2, months: ['26/01', '26/02', '26/03'] } });
    // The empty cell stores no capacity: 3 + 2 months.
    expect(await capacityCount()).toBe(5);
  });

  it('says the §5 header problems in the spec words, and an empty file', async () => {
    expect((await upload('Profession;Nom;26/01\r\n2;x;1')).body.errorMsg).toBe('Missing columns : Specialty');
    expect((await upload('Foo;26/01\r\n2;1')).body.errorMsg).toBe('Missing columns : Profession | Specialty | Nom');
    expect((await upload('Profession;Specialty;Nom;2026-01\r\n;1;x;1')).body.errorMsg).toBe(
      'Wrong format of dates, they should be formated like this: YY/MM (ex: 22/01)',
    );
    expect((await upload('Profession;Specialty;Nom;26/13\r\n;1;x;1')).body.errorMsg).toBe('Invalid dates');
    expect(await upload('Profession;Specialty;Nom;26/01\r\n')).toEqual({ status: 400, body: { errorMsg: 'Le fichier est vide' } });
    expect((await upload('')).body.errorMsg).toBe('Le fichier est vide');
    expect((await upload(FILE, admin, 'inventaire.txt')).status).toBe(400);
  });

  it('reads comma files in Windows-1252 with a BOM-less header, French numbers, and replaces only the months it names', async () => {
    const latin = Buffer.from(
      'Profession,Specialty,Nom,26/03,26/04\r\nPharmacien,,Pharmacien,"12 000",7000\r\n,Dermatologie et vénéréologie,Dermatologie,5000,5000\r\n',
      'latin1',
    );
    expect(await upload(latin)).toEqual({ status: 200, body: { rows: 2, months: ['26/03', '26/04'] } });
    const answer = await list({ from: '26/01', to: '26/04' });
    expect(answer.status).toBe(200);
    const byName = Object.fromEntries(answer.body.map((row: any) => [row.populationCategory, row.inventory.map((entry: any) => entry.totalViews)]));
    // 26/03 was replaced for every category (general medicine has none there now), 26/01-02 kept.
    expect(byName).toEqual({ 'Médecine générale': [100000, 100000, 0, 0], Dermatologie: [0, 0, 5000, 5000], Pharmacien: [50000, 0, 12000, 7000] });
    expect(answer.body.map((row: any) => [row.label, row.id])).toEqual([
      ['Specialty', 1],
      ['Specialty', 15],
      ['Profession', 4],
    ]);
  });

  it('a 2,000-row file with a bad row at line 1,500 writes nothing and names the line', async () => {
    const before = await rows(server.database.db, sql`SELECT * FROM inventory_capacity ORDER BY 1, 2, 4`);
    const importsBefore = await rows(server.database.db, sql`SELECT * FROM inventory_imports ORDER BY id`);
    // 24 months: past 20,000 cells the rows read are staged, so the bad row comes after batches were written.
    const months = Array.from({ length: 24 }, (_, i) => `${27 + Math.floor(i / 12)}/${String(1 + (i % 12)).padStart(2, '0')}`);
    const lines = [`Profession;Specialty;Nom;${months.join(';')}`];
    for (let i = 1; i <= 2000; i += 1)
      lines.push(
        `;${100 + i};Spé ${i};${i === 1499 ? '12x' : 1000 + i};${months
          .slice(1)
          .map(() => 2000 + i)
          .join(';')}`,
      );
    const answer = await upload(lines.join('\n'));
    expect(answer.status).toBe(400);
    expect(answer.body.errorMsg).toBe('Ligne 1500 : nombre de vues invalide « 12x » (colonne 27/01)');
    expect(await rows(server.database.db, sql`SELECT * FROM inventory_capacity ORDER BY 1, 2, 4`)).toEqual(before);
    expect((await rows<{ n: number }>(server.database.db, sql`SELECT count(*)::int AS n FROM inventory_staging`))[0].n).toBe(0);
    expect(await rows(server.database.db, sql`SELECT * FROM inventory_imports ORDER BY id`)).toEqual(importsBefore);
  });

  it('imports a large file (staged as it is read) like a small one, and a renamed category takes its new name in every month', async () => {
    const db = server.database.db;
    const months = Array.from({ length: 36 }, (_, i) => `${29 + Math.floor(i / 12)}/${String(1 + (i % 12)).padStart(2, '0')}`);
    const lines = [`Profession;Specialty;Nom;${months.join(';')}`];
    for (let i = 1; i <= 700; i += 1) lines.push(`;${3000 + i};Grande ${i};${months.map((_, m) => `${i} ${String(m).padStart(3, '0')}`).join(';')}`);
    expect(await upload(lines.join('\r\n'), admin, 'grand.csv')).toEqual({ status: 200, body: { rows: 700, months } });
    const inYears = sql`month >= '2029-01-01'`;
    const count = async () => (await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM inventory_capacity WHERE ${inYears}`))[0].n;
    expect(await count()).toBe(700 * 36);
    const [cell] = await rows(
      db,
      sql`SELECT name, total_views::float8 AS views FROM inventory_capacity WHERE label = 'Specialty' AND category_id = 3042 AND month = '2030-03-01'`,
    );
    expect(cell).toEqual({ name: 'Grande 42', views: 42014 });
    expect((await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM inventory_staging`))[0].n).toBe(0);
    const [history] = await rows(
      db,
      sql`SELECT file_name AS "fileName", rows, months, finished_at IS NOT NULL AS finished FROM inventory_imports ORDER BY id DESC LIMIT 1`,
    );
    expect(history).toEqual({ fileName: 'grand.csv', rows: 700, months, finished: true });

    // A small file naming 29/01 only: the other categories lose 29/01, category 3042 is renamed in all its months.
    expect(await upload('Profession;Specialty;Nom;29/01\r\n;3042;Grande quarante-deux;5\r\n')).toEqual({
      status: 200,
      body: { rows: 1, months: ['29/01'] },
    });
    expect(await count()).toBe(700 * 36 - 699);
    const names = await rows<{ name: string; n: number }>(
      db,
      sql`SELECT name, count(*)::int AS n FROM inventory_capacity WHERE label = 'Specialty' AND category_id = 3042 GROUP BY name`,
    );
    expect(names).toEqual([{ name: 'Grande quarante-deux', n: 36 }]);
    await db.execute(sql`DELETE FROM inventory_capacity WHERE ${inYears}`);
  });
});

describe('consumption, views and availability (POST /inventory, /inventory/availability)', () => {
  it('computes consumption from the targets booking views, spread over their days, and follows a change at the next read', async () => {
    // Pharmacien: 26/01 50 000, 26/02 none, 26/03 12 000, 26/04 7 000 (files above).
    const { targetId } = await bookTarget({
      populationCategory: 'pharmacien',
      goal: { views: 5900 },
      startDate: day(2026, 1, 1),
      endDate: day(2026, 2, 28),
    });
    const consumed = async (viewType = 'month') =>
      (await list({ from: '26/01', to: '26/04', profession: [4], viewType })).body[0].inventory.map((entry: any) => entry.consumedViews);
    // 59 days: 31 in January, 28 in February, 100 views a day.
    expect(await consumed()).toEqual([3100, 2800, 0, 0]);
    expect(await consumed('quarter')).toEqual([5900, 0]);
    const quarter = (await list({ from: '26/01', to: '26/06', profession: [4], viewType: 'quarter' })).body[0].inventory;
    expect(quarter).toEqual([
      { date: '26/01', totalViews: 62000, consumedViews: 5900 },
      { date: '26/04', totalViews: 7000, consumedViews: 0 },
    ]);
    await server.request('PUT', `/target/${targetId}/properties`, { token: csm, body: { startDate: day(2026, 3, 1), endDate: day(2026, 3, 31) } });
    expect(await consumed()).toEqual([0, 0, 5900, 0]);
    await server.request('PUT', `/target/${targetId}/properties`, { token: csm, body: { status: '7. annulé' } });
    expect(await consumed()).toEqual([0, 0, 0, 0]);
    await server.request('PUT', `/target/${targetId}/properties`, { token: csm, body: { status: '2. en ligne', goal: { days: 10 } } });
    expect(await consumed()).toEqual([0, 0, 0, 0]);
    await server.request('PUT', `/target/${targetId}/properties`, {
      token: csm,
      body: { goal: { views: 3100 }, populationCategory: 'Dermatologie' },
    });
    expect(await consumed()).toEqual([0, 0, 0, 0]);
    const derm = (await list({ from: '26/03', to: '26/03', specialty: [15] })).body[0];
    expect(derm.inventory).toEqual([{ date: '26/03', totalViews: 5000, consumedViews: 3100 }]);
    // Without dates: no month consumed, counted apart.
    await server.request('PUT', `/target/${targetId}/properties`, { token: csm, body: { startDate: null, endDate: null } });
    const unplanned = (await list({ from: '26/03', to: '26/03', specialty: [15] })).body[0];
    expect([unplanned.inventory[0].consumedViews, unplanned.unplannedViews]).toEqual([0, 3100]);
  });

  it('answers availability per month: the sold views spread evenly, viewDifference = remaining − share', async () => {
    const check = (body: Record<string, unknown>, token = admin) => server.request('POST', '/inventory/availability', { token, body });
    // Pharmacien 26/03 12 000 and 26/04 7 000 remaining; 20 000 sold: 10 000 a month.
    expect((await check({ from: '26/03', to: '26/04', profession: [4], soldViews: 20000 })).body).toEqual([
      { date: '26/03', isAvailable: true, viewDifference: 2000 },
      { date: '26/04', isAvailable: false, viewDifference: -3000 },
    ]);
    // Two categories add up.
    expect((await check({ from: '26/04', to: '26/04', profession: [4], specialty: [15], soldViews: 12000 })).body).toEqual([
      { date: '26/04', isAvailable: true, viewDifference: 0 },
    ]);
    expect((await check({ from: '26/04', to: '26/03', profession: [4], soldViews: 1 })).body).toEqual({ errorMsg: INVENTORY_MESSAGES.startAfterEnd });
    expect((await check({ from: '26/03', to: '26/04', soldViews: 1 })).body).toEqual({ errorMsg: INVENTORY_MESSAGES.fillAllFields });
    for (const roles of [['CSM_LEAD'], ['CSM'], ['SALES']] as Role[][]) {
      const token = (await server.signIn(roles)).accessToken.value;
      expect((await check({ from: '26/03', to: '26/04', profession: [4], soldViews: 1 }, token)).status, roles.join()).toBe(403);
    }
  });

  it('lets CSM_LEAD and ADMIN read, refuses the other roles', async () => {
    const body = { from: '26/01', to: '26/06' };
    expect((await list(body, lead)).status).toBe(200);
    expect((await list(body, admin)).status).toBe(200);
    for (const roles of [['CSM'], ['SALES'], ['CONTENT_CREATOR'], ['CONTENT_CREATOR_LEAD']] as Role[][]) {
      const token = (await server.signIn(roles)).accessToken.value;
      expect(await list(body, token), roles.join()).toMatchObject({ status: 403, body: { errorMsg: MESSAGES.userNotAllowed } });
    }
  });
});

describe('export, consumers and the project-side check', () => {
  it('exports inventaire.csv over 12 months from now for ADMIN only, in the import columns', async () => {
    const token = admin;
    const response = await fetch(`${server.url}/inventory/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toContain('inventaire.csv');
    const text = await response.text();
    const [header, ...lines] = text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(header).toBe('Profession;Specialty;Nom;26/01;26/02;26/03;26/04;26/05;26/06;26/07;26/08;26/09;26/10;26/11;26/12');
    expect(lines).toContain('4;;Pharmacien;50000;0;12000;7000;0;0;0;0;0;0;0;0');
    expect(lines).toContain('Médecin;15;Dermatologie;0;0;5000;5000;0;0;0;0;0;0;0;0');
    const refused = await server.request('POST', '/inventory/export', { token: lead, body: {} });
    expect(refused.status).toBe(403);
    // It imports back.
    expect((await upload(text)).status).toBe(200);
  });

  it('lists the targets consuming a month and checks one target from the project side, leaving its own booking out', async () => {
    const { projectId, targetId } = await bookTarget({
      populationCategory: 'Pharmacien',
      goal: { views: 15000 },
      startDate: day(2026, 3, 1),
      endDate: day(2026, 4, 30),
    });
    const found = await server.request('POST', '/inventory/consumers', {
      token: lead,
      body: { from: '26/03', to: '26/04', label: 'Profession', id: 4 },
    });
    expect(found.body[0].targets).toEqual([{ projectId, projectName: 'Campagne cardio', targetId, actionCode: expect.any(String), views: 7623 }]);
    expect(found.body[1].targets[0].views).toBe(7377);
    const check = await server.request('GET', `/target/${targetId}/inventory`, { token: csm });
    // 12 000 and 7 000 left without it; 7 500 a month sold.
    expect(check.body).toEqual({
      state: 'checked',
      months: [
        { date: '26/03', isAvailable: true, viewDifference: 4500 },
        { date: '26/04', isAvailable: false, viewDifference: -500 },
      ],
    });
    const other = await bookTarget({ populationCategory: 'Inconnue', goal: { views: 10 }, startDate: day(2026, 3, 1), endDate: day(2026, 3, 2) });
    expect((await server.request('GET', `/target/${other.targetId}/inventory`, { token: csm })).body).toEqual({ state: 'unknown', months: [] });
    expect(
      (await server.request('GET', `/target/${other.targetId}/inventory`, { token: (await server.signIn(['CONTENT_CREATOR'])).accessToken.value }))
        .status,
    ).toBe(403);
  });

  it('seeds the demo capacity once, consistent with the targets: rows on alert and a sold-out month', async () => {
    const db = server.database.db;
    await db.execute(sql`DELETE FROM inventory_capacity`);
    expect(await seedInventoryDemo(db, new Date(Date.UTC(2026, 2, 10)))).toBe(true);
    expect(await seedInventoryDemo(db, new Date(Date.UTC(2026, 2, 10)))).toBe(false);
    const [{ n }] = await rows<{ n: number }>(db, sql`SELECT count(DISTINCT (label, category_id))::int AS n FROM inventory_capacity`);
    expect(n).toBe(52 + 10);
    const pharmacists = (await list({ from: '26/03', to: '26/04', profession: [4] })).body[0].inventory;
    // The busiest booked month is sold out (consumption above capacity).
    expect(pharmacists.some((entry: any) => entry.consumedViews > entry.totalViews)).toBe(true);
  });
});
