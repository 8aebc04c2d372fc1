import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAB_MESSAGES } from '@shared/messages/laboratory';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The panel reader cuts its blocks on every line break (LF, CRLF, and CR alone: old Excel exports), and refuses a
 * file whose record never ends (an unbalanced quote) instead of holding it whole. PGlite, or PostgreSQL with
 * TEST_DATABASE_URL.
 */
let server: TestServer;
let sales: string;

beforeAll(async () => {
  server = await startTestServer();
  sales = (await server.signIn(['SALES'])).accessToken.value;
});
afterAll(() => server?.close());

async function upload(name: string, csv: string) {
  const form = new FormData();
  form.append('projectName', name);
  form.append('file', new Blob([csv]), 'panel.csv');
  const response = await fetch(`${server.url}/alphonse/project`, { method: 'POST', headers: { authorization: `Bearer ${sales}` }, body: form });
  return { status: response.status, body: (await response.json()) as any };
}

const rows = (count: number) => Array.from({ length: count }, (_, index) => `Nom${index};Prénom;F;valeur ${index % 7}`);

describe('panel line breaks', () => {
  it.each([
    ['CR', '\r'],
    ['CRLF', '\r\n'],
    ['LF', '\n'],
  ])('reads a 3 MB panel ending its lines with %s, every row', async (_name, end) => {
    const csv = ['NAME;SURNAME;GENDER;CRIT_01', ...rows(100_000)].join(end);
    const created = await upload(`Fin ${_name}`, csv);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.usersCount).toBe(100_000);
    const project = await server.request('GET', `/alphonse/project/${created.body.id}`, { token: sales });
    expect(project.body.fields.slice(0, 4)).toEqual(['NAME', 'SURNAME', 'GENDER', 'CRIT_01']);
  });

  it('refuses a quote never closed, naming the line where its record starts, and keeps serving', async () => {
    const csv = ['NAME;SURNAME;GENDER;CRIT_01', ...rows(10), 'Nom;"Prénom;F;x', ...rows(200_000)].join('\n');
    const refused = await upload('Guillemet', csv);
    expect(refused).toEqual({ status: 400, body: { errorMsg: LAB_MESSAGES.panelRecordTooLong(12, 1) } });
    expect(refused.body.errorMsg).toBe('Ligne 12 : plus de 1 Mo sans fin de ligne (un guillemet jamais fermé ?)');
    expect((await upload('Après', ['NAME;SURNAME;GENDER;CRIT_01', ...rows(3)].join('\n'))).status).toBe(201);
  });
});
