import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_MAX_PAGE, INVENTORY_PAGE_SIZE } from '@shared/rules/inventory';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Issue 51 item 11: POST /inventory answered every category at once (10 MB for 23,661 categories). It answers a
 * page of them in the screen's order (general medicine, the other specialties by name, then the professions), with
 * their count; the screen asks for the next page.
 */
let server: TestServer;
let admin: string;
const CATEGORIES = 250;

beforeAll(async () => {
  server = await startTestServer();
  admin = (await server.signIn(['ADMIN'])).accessToken.value;
  // 240 specialties (general medicine among them) and 10 professions, named out of id order.
  const lines = ['Profession;Specialty;Nom;26/03;26/04'];
  for (let i = 0; i < CATEGORIES - 10; i++) {
    const id = i === 0 ? 1 : 5000 + i;
    lines.push(`Médecin;${id};${i === 0 ? 'Médecine générale' : `Spécialité ${String((i * 37) % 1000).padStart(3, '0')}-${i}`};1000;2000`);
  }
  for (let i = 0; i < 10; i++) lines.push(`${100 + i};;Profession ${String.fromCharCode(74 - i)};500;500`);
  const form = new FormData();
  form.append('file', new Blob([lines.join('\r\n')]), 'inventaire.csv');
  const uploaded = await fetch(`${server.url}/inventory/upload`, { method: 'PUT', headers: { authorization: `Bearer ${admin}` }, body: form });
  expect(uploaded.status, await uploaded.clone().text()).toBe(200);
});
afterAll(() => server?.close());

const page = (body: Record<string, unknown>) => server.request('POST', '/inventory', { token: admin, body: { from: '26/03', to: '26/04', ...body } });

describe('POST /inventory pages the categories', () => {
  it('answers the first page by default, with the count, and every category once over the pages, in the screen order', async () => {
    const first = await page({});
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(CATEGORIES);
    expect(first.body.items).toHaveLength(INVENTORY_PAGE_SIZE);
    const all = [...first.body.items];
    for (let skip = INVENTORY_PAGE_SIZE; skip < CATEGORIES; skip += INVENTORY_PAGE_SIZE) {
      const next = await page({ skip });
      expect(next.body.total).toBe(CATEGORIES);
      all.push(...next.body.items);
    }
    expect(all).toHaveLength(CATEGORIES);
    expect(new Set(all.map((row) => `${row.label}:${row.id}`)).size).toBe(CATEGORIES);
    // The order of the whole list (unpaged, as the export reads it): general medicine first, by name, professions last.
    const names = all.map((row) => row.populationCategory as string);
    expect(names[0]).toBe('Médecine générale');
    const specialties = names.slice(1, CATEGORIES - 10);
    expect(specialties).toEqual([...specialties].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
    expect(all.slice(CATEGORIES - 10).map((row) => row.label)).toEqual(Array(10).fill('Profession'));
    expect(all[5].inventory).toEqual([
      { date: '26/03', totalViews: 1000, consumedViews: 0 },
      { date: '26/04', totalViews: 2000, consumedViews: 0 },
    ]);
  });

  it('keeps the count past the last page, pages the quarter view, and bounds the page', async () => {
    expect((await page({ skip: 1000 })).body).toEqual({ items: [], total: CATEGORIES });
    const quarter = await page({ from: '26/01', to: '26/12', viewType: 'quarter', skip: 240, limit: 20 });
    expect(quarter.body.total).toBe(CATEGORIES);
    expect(quarter.body.items).toHaveLength(10);
    expect(quarter.body.items[0].inventory).toHaveLength(4);
    expect((await page({ limit: INVENTORY_MAX_PAGE })).body.items).toHaveLength(CATEGORIES);
    const tooMany = await page({ limit: INVENTORY_MAX_PAGE + 1 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.field).toBe('limit');
    // A filter counts only its categories.
    expect((await page({ specialty: [1], profession: [105] })).body).toMatchObject({ total: 2, items: [{ id: 1 }, { id: 105 }] });
  });
});
