import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportJob } from '@shared/contract/imports';
import { IMPORT_MESSAGES as M } from '@shared/messages/imports';
import { IMPORT_FIELDS } from '@shared/rules/imports';
import { rows } from '../../src-server/db/rows';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The CSV list import through the real server, on PGlite or PostgreSQL (TEST_DATABASE_URL): files of the
 * CSV area, the preview, the roles, and imports that apply all or nothing, the audience engine current when done.
 */
let server: TestServer;
let csm: string;
let lead: string;
let admin: string;

beforeAll(async () => {
  server = await startTestServer();
  csm = (await server.signIn(['CSM'])).accessToken.value;
  lead = (await server.signIn(['CSM_LEAD'])).accessToken.value;
  admin = (await server.signIn(['ADMIN'])).accessToken.value;
});
afterAll(() => server?.close());

async function upload(name: string, content: Uint8Array | string, token = csm) {
  const form = new FormData();
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
  const response = await fetch(`${server.url}/csv/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: response.status, body: (await response.json()) as any };
}

async function runImport(filename: string, mapping: { header: string; field: string | null }[], token = csm) {
  return server.request('POST', '/csv/import', { token, body: { filename, mapping } });
}

/** Polls the job (as the page does until job events land) until it leaves `running`. */
async function finished(id: number, token = csm): Promise<ImportJob> {
  for (let attempt = 0; attempt < 1200; attempt += 1) {
    const job = await server.request('GET', `/csv/import/${id}`, { token });
    expect(job.status).toBe(200);
    if (job.body.state !== 'running' && job.body.state !== 'queued') return job.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('import did not finish');
}

async function areaSize(area: string): Promise<number> {
  const answer = await server.request('POST', '/audience/size', { token: admin, body: { area, relationships: [] } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.size;
}

const userCount = async () => (await rows<{ count: number }>(server.database.db, sql`SELECT count(*)::int AS count FROM app_users`))[0].count;

const MAPPING = [
  { header: 'ID', field: 'externalId' },
  { header: 'E-mail', field: 'email' },
  { header: 'Nom', field: 'name' },
  { header: 'Profession', field: 'profession' },
  { header: 'Spécialité', field: 'specialty' },
  { header: 'Langue', field: 'area' },
  { header: 'CP', field: 'zipcode' },
  { header: 'Commentaire', field: null },
];

/** A file of `count` users (Windows-1252 would not hold every name: UTF-8, ';'), `bad` rows given a wrong profession. */
function population(count: number, bad: Set<number> = new Set()): string {
  const lines = ['ID;E-mail;Nom;Profession;Spécialité;Langue;CP;Commentaire'];
  for (let n = 1; n <= count; n += 1) {
    const profession = bad.has(n) ? 'Astronaute' : n % 2 ? 'Médecin' : '4';
    lines.push(
      `imp-${n};user${n}@import.test;Dr Éloïse ${n};${profession};Cardiologie et maladies vasculaires;${n % 3 ? 'french' : 'spanish'};75${String(n % 1000).padStart(3, '0')};x`,
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

describe('CSV area and preview', () => {
  it('uploads, lists newest first, pages the rows 25 at a time with the fields a column may fill', async () => {
    const content = population(60);
    expect((await upload('liste-a.csv', content)).status).toBe(200);
    const listed = await server.request('GET', '/csv/list', { token: csm });
    expect(listed.status).toBe(200);
    expect(listed.body.files.map((file: { name: string }) => file.name)).toContain('liste-a.csv');
    const first = await server.request('GET', '/csv/data?filename=liste-a.csv&max=25&skip=0', { token: csm });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ filename: 'liste-a.csv', separator: ';', encoding: 'utf-8', hasMore: true });
    expect(first.body.headers).toEqual(MAPPING.map((entry) => entry.header));
    expect(first.body.availableFields360).toEqual([...IMPORT_FIELDS]);
    expect(first.body.data).toHaveLength(25);
    expect(first.body.data[0].slice(0, 3)).toEqual(['imp-1', 'user1@import.test', 'Dr Éloïse 1']);
    const last = await server.request('GET', '/csv/data?filename=liste-a.csv&max=25&skip=50', { token: csm });
    expect(last.body.data).toHaveLength(10);
    expect(last.body.hasMore).toBe(false);
    expect(last.body.data[0][0]).toBe('imp-51');
  });

  it('reads Windows-1252 and UTF-8 with a BOM, separated by ; or ,', async () => {
    const latin = Buffer.from('Nom;Spécialité\r\nHélène;Gériatrie\r\n', 'latin1');
    await upload('latin.csv', latin);
    const read = await server.request('GET', '/csv/data?filename=latin.csv', { token: csm });
    expect(read.body).toMatchObject({ encoding: 'windows-1252', separator: ';', headers: ['Nom', 'Spécialité'], data: [['Hélène', 'Gériatrie']] });
    await upload('bom.csv', `\ufeffemail,name\r\n"a@b.fr","Dupont, Jean"\r\n`);
    const bom = await server.request('GET', '/csv/data?filename=bom.csv', { token: csm });
    expect(bom.body).toMatchObject({ encoding: 'utf-8', separator: ',', headers: ['email', 'name'], data: [['a@b.fr', 'Dupont, Jean']] });
  });

  it('refuses other roles, other formats, unknown files and names outside the area', async () => {
    const sales = (await server.signIn(['SALES'])).accessToken.value;
    const content = (await server.signIn(['CONTENT_CREATOR'])).accessToken.value;
    for (const token of [sales, content]) {
      expect((await server.request('GET', '/csv/list', { token })).status).toBe(403);
      expect((await server.request('GET', '/csv/data?filename=liste-a.csv', { token })).status).toBe(403);
      expect((await runImport('liste-a.csv', MAPPING, token)).status).toBe(403);
      expect((await server.request('GET', '/csv/imports', { token })).status).toBe(403);
      expect((await upload('x.csv', 'a\n1\n', token)).status).toBe(403);
    }
    expect((await server.request('GET', '/csv/list', { token: lead })).status).toBe(200);
    expect((await upload('x.txt', 'a\n1\n')).status).toBe(400);
    expect((await server.request('GET', '/csv/data?filename=absent.csv', { token: csm })).body.errorMsg).toBe(M.fileNotFound);
    expect((await server.request('GET', `/csv/data?filename=${encodeURIComponent('../x.csv')}`, { token: csm })).status).toBe(400);
    // The lists hold e-mails: never served by the media route, whatever the spelling of the folder.
    for (const path of ['/cdn/imports/csv/liste-a.csv', '/cdn/IMPORTS./csv/liste-a.csv', '/cdn/Imports/csv/liste-a.csv'])
      expect((await server.request('GET', path, { token: csm })).status, path).toBe(404);
  });
});

describe('imports', () => {
  it('refuses a mapping naming a missing column, a field twice, or no key', async () => {
    const missing = await runImport('liste-a.csv', [{ header: 'Absent', field: 'email' }]);
    expect(missing).toMatchObject({ status: 400, body: { errorMsg: M.unknownHeader('Absent') } });
    const twice = await runImport('liste-a.csv', [
      { header: 'ID', field: 'externalId' },
      { header: 'Nom', field: 'externalId' },
    ]);
    expect(twice.body.errorMsg).toBe(M.fieldTwice('externalId'));
    expect((await runImport('liste-a.csv', [{ header: 'Nom', field: 'name' }])).body.errorMsg).toBe(M.keyRequired);
  });

  it('200,000 rows with one bad row: nothing applied, the row named; fixed: all applied and the engine sees them', { timeout: 240_000 }, async () => {
    const before = await userCount();
    await upload('grand.csv', population(200_000, new Set([150_000])));
    const started = await runImport('grand.csv', MAPPING);
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const failed = await finished(started.body.id);
    expect(failed).toMatchObject({ state: 'failed', errorCount: 1, progress: { read: 200_000, valid: 199_999 } });
    // The header is line 1: user 150,000 is on line 150,001.
    expect(failed.errors).toEqual([{ line: 150_001, column: 'Profession', message: M.unknownProfession }]);
    expect(await userCount()).toBe(before);
    expect(await areaSize('french')).toBe(0);
    expect((await rows<{ count: number }>(server.database.db, sql`SELECT count(*)::int AS count FROM csv_import_rows`))[0].count).toBe(0);

    await upload('grand.csv', population(200_000));
    const fixed = await runImport('grand.csv', MAPPING);
    const done = await finished(fixed.body.id);
    expect(done, JSON.stringify(done.message)).toMatchObject({ state: 'done', inserted: 200_000, updated: 0, errorCount: 0 });
    expect(done.progress).toEqual({ read: 200_000, valid: 200_000, written: 200_000 });
    expect(await userCount()).toBe(before + 200_000);
    // The engine: two thirds french, one third spanish, as soon as the job says done.
    expect(await areaSize('french')).toBe(133_334);
    expect(await areaSize('spanish')).toBe(66_666);
    const [one] = await rows<{ professionId: number; specialtyId: number; zipcode: string; name: string }>(
      server.database.db,
      sql`SELECT profession_id AS "professionId", specialty_id AS "specialtyId", zipcode, name FROM app_users WHERE external_id = 'imp-2'`,
    );
    expect(one).toEqual({ professionId: 4, specialtyId: 6, zipcode: '75002', name: 'Dr Éloïse 2' });
  });

  it('enriches existing users found by e-mail, keeping what the file leaves empty; an unknown e-mail is named', async () => {
    await upload('enrich.csv', 'email;Langue;Ville\r\nuser3@import.test;french;Lyon\r\nuser4@import.test;;Paris\r\n');
    const mapping = [
      { header: 'email', field: 'email' },
      { header: 'Langue', field: 'area' },
      { header: 'Ville', field: 'workplace' },
    ];
    const done = await finished((await runImport('enrich.csv', mapping)).body.id);
    expect(done).toMatchObject({ state: 'done', inserted: 0, updated: 2 });
    const users = await rows<{ area: string; workplace: string; name: string }>(
      server.database.db,
      sql`SELECT area, workplace, name FROM app_users WHERE external_id IN ('imp-3', 'imp-4') ORDER BY external_id`,
    );
    expect(users).toEqual([
      { area: 'french', workplace: 'Lyon', name: 'Dr Éloïse 3' },
      { area: 'french', workplace: 'Paris', name: 'Dr Éloïse 4' },
    ]);
    expect(await areaSize('french')).toBe(133_335);

    await upload('unknown.csv', 'email;Ville\r\nuser5@import.test;Nice\r\nnobody@import.test;Nice\r\nuser5@import.test;Nice\r\n');
    const refused = await finished(
      (
        await runImport(
          'unknown.csv',
          mapping.filter((entry) => entry.header !== 'Langue'),
        )
      ).body.id,
    );
    expect(refused).toMatchObject({ state: 'failed', errorCount: 2 });
    expect(refused.errors).toEqual([
      { line: 3, column: 'email', message: M.unknownEmail },
      { line: 4, column: 'email', message: M.duplicateKey('email', 2) },
    ]);
    expect(
      (await rows<{ workplace: string | null }>(server.database.db, sql`SELECT workplace FROM app_users WHERE external_id = 'imp-5'`))[0].workplace,
    ).toBeNull();
  });

  it("counts as 'mis à jour' only the users whose values changed: the same list again reports 0", async () => {
    await upload('same.csv', 'email;Ville\r\nuser6@import.test;Lille\r\nuser7@import.test;Lille\r\n');
    const mapping = [
      { header: 'email', field: 'email' },
      { header: 'Ville', field: 'workplace' },
    ];
    expect(await finished((await runImport('same.csv', mapping)).body.id)).toMatchObject({ state: 'done', inserted: 0, updated: 2 });
    const again = await finished((await runImport('same.csv', mapping)).body.id);
    expect(again).toMatchObject({ state: 'done', inserted: 0, updated: 0, message: M.done(0, 0) });
    await upload('one-changed.csv', 'email;Ville\r\nuser6@import.test;Lille\r\nuser7@import.test;Nantes\r\n');
    expect(await finished((await runImport('one-changed.csv', mapping)).body.id)).toMatchObject({ state: 'done', inserted: 0, updated: 1 });
  });

  it("refuses postal codes without a digit or with a dash at an end, naming the line and the reason ('ABCDE', '-1')", async () => {
    await upload('zip.csv', 'ID;CP\r\nzip-1;75011\r\nzip-2;ABCDE\r\nzip-3;-1\r\n');
    const mapping = [
      { header: 'ID', field: 'externalId' },
      { header: 'CP', field: 'zipcode' },
    ];
    const refused = await finished((await runImport('zip.csv', mapping)).body.id);
    expect(refused).toMatchObject({ state: 'failed', errorCount: 2 });
    expect(refused.errors).toEqual([
      { line: 3, column: 'CP', message: M.invalidZipcode },
      { line: 4, column: 'CP', message: M.invalidZipcode },
    ]);
    expect(await rows(server.database.db, sql`SELECT 1 FROM app_users WHERE external_id LIKE 'zip-%'`)).toEqual([]);
  });

  it('lists the latest jobs; a cancel stops a running import and nothing is applied', { timeout: 120_000 }, async () => {
    const before = await userCount();
    await upload('annule.csv', population(20_000).replaceAll('imp-', 'can-'));
    const started = await runImport('annule.csv', MAPPING, lead);
    expect(started.status).toBe(202);
    expect((await runImport('annule.csv', MAPPING)).status).toBe(409);
    const cancelled = await server.request('POST', `/csv/import/${started.body.id}/cancel`, { token: csm });
    expect(cancelled.status).toBe(200);
    const job = await finished(started.body.id);
    expect(job).toMatchObject({ state: 'cancelled', message: M.cancelledByUser });
    expect(await userCount()).toBe(before);
    expect((await server.request('POST', `/csv/import/${started.body.id}/cancel`, { token: csm })).status).toBe(409);
    expect((await server.request('GET', '/csv/import/999999', { token: csm })).status).toBe(404);
    const jobs = await server.request('GET', '/csv/imports', { token: csm });
    expect(jobs.body.jobs[0]).toMatchObject({ id: started.body.id, state: 'cancelled', errors: [] });
  });
});
