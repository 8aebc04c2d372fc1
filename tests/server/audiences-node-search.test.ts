import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The criteria search of the audience editor buried the specialties under a feed and 24
 * documents. Outside the group page, attribute labels and names where the term starts a word come first; the group
 * page keeps the spec's Feed, Document, App order (§4).
 */
let server: TestServer;
let lead: string;

beforeAll(async () => {
  server = await startTestServer();
  lead = (await server.signIn(['CSM_LEAD'])).accessToken.value;
  // As the population would have made them (a node per value some app user has).
  const nodes: [string, string, string][] = [
    ['Specialty', '6', 'Cardiologie et maladies vasculaires'],
    ['Specialty', '12', 'Chirurgie thoracique et cardiovasculaire'],
    ['Specialty', '15', 'Dermatologie et vénéréologie'],
    ['Specialty', '24', 'Médecine cardiovasculaire'],
    ['Feed', 'feed-cardio', 'Cardiologie'],
    ['App', 'app-cardio', 'CardioTool'],
    ['Document', 'doc-echo', 'Échocardiographie de stress'],
    ...Array.from({ length: 30 }, (_, i): [string, string, string] => ['Document', `doc-${i}`, `Actualités en cardiologie n°${i + 1}`]),
  ];
  for (const [label, value, name] of nodes)
    await server.database.db.execute(sql`INSERT INTO nodes (label, value, name) VALUES (${label}, ${value}, ${name}) ON CONFLICT DO NOTHING`);
}, 60_000);
afterAll(() => server?.close());

async function search(term: string, isGroup = false) {
  const found = await server.request('GET', `/search?term=${encodeURIComponent(term)}&limit=25&isGroup=${isGroup}`, { token: lead });
  expect(found.status, JSON.stringify(found.body)).toBe(200);
  return found.body as { id: number; label: string; name: string }[];
}
const shown = (found: { label: string; name: string }[]) => found.map((node) => `${node.label}: ${node.name}`);

describe('criteria search ranking', () => {
  it("puts the specialties first for 'cardio', the name starting with the term before the word inside", async () => {
    const found = shown(await search('cardio'));
    expect(found.slice(0, 5)).toEqual([
      'Specialty: Cardiologie et maladies vasculaires',
      'Specialty: Médecine cardiovasculaire',
      'Specialty: Chirurgie thoracique et cardiovasculaire',
      // Feeds and apps next, the shorter name first.
      'App: CardioTool',
      'Feed: Cardiologie',
    ]);
    expect(found[5]).toMatch(/^Document: Actualités en cardiologie/);
    expect(found).toHaveLength(25);
    // A match inside a word ('échoCARDIOgraphie') comes after every word-prefix match: here past the limit.
    expect(found).not.toContain('Document: Échocardiographie de stress');
  });

  it('matches the start of a word whatever the case and the accents', async () => {
    expect(shown(await search('DERMATO')).slice(0, 1)).toEqual(['Specialty: Dermatologie et vénéréologie']);
    expect(shown(await search('medecine card'))[0]).toBe('Specialty: Médecine cardiovasculaire');
    expect(shown(await search('echocardio'))).toEqual(['Document: Échocardiographie de stress']);
    // Regular-expression characters in the term are plain characters.
    expect(await search('n°1 (')).toEqual([]);
    expect(await search('zzzz')).toEqual([]);
  });

  it('keeps the group page order: Feed, Document, App, then the others (spec §4)', async () => {
    const found = await search('cardio', true);
    expect(shown(found)[0]).toBe('Feed: Cardiologie');
    expect(found.slice(1, 25).every((node) => node.label === 'Document')).toBe(true);
    expect(found).toHaveLength(25);
  });
});
