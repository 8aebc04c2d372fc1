import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldForSearch } from '@shared/rules/fold';
import type { DatabaseHandle } from '../../src-server/db/client';
import { rows } from '../../src-server/db/rows';
import { foldForSearch as sqlFold } from '../../src-server/db/schema';
import { freshDatabase } from '../helpers/database';

/**
 * The JavaScript fold (src-shared/rules/fold.ts) against the SQL one the search keys are stored with
 * (src-server/db/schema/accounts.ts), in a real database: PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
let database: DatabaseHandle;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await database.close();
});

async function foldedInSql(texts: readonly string[]): Promise<string[]> {
  const found = await rows<{ folded: string }>(
    database.db,
    sql`SELECT ${sqlFold(sql`t.text`)} AS folded FROM unnest(${sql.param(texts)}::text[]) WITH ORDINALITY AS t(text, n) ORDER BY t.n`,
  );
  return found.map((row) => row.folded);
}

/** French text the products hold: names of people, audiences, projects, headers of imported files. */
const TRICKY = [
  'Chloé',
  'CHLOÉ',
  'chloe',
  'Médecine générale',
  'Cœur',
  'CŒUR',
  'Sœur Œuvre',
  'Hôpital Saint-Éloi',
  'ÇA VA À LA GARE',
  'Noël',
  'naïve',
  "L'HAŸ-LES-ROSES",
  'Ÿvette ÿ',
  'Ñandú',
  'Ångström Øresund',
  'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÝýÿŸ',
  'Pédiatrie\nDr Zoé Lefèvre\nzoe.lefevre@example.org',
  '  espaces  et\tonglets ',
  '100 % _LIKE_ \\ échappé',
  'DEV-2024-0042 — Q3',
  '',
];

describe('text folding: JavaScript and SQL agree', () => {
  it('folds every tricky French string to the same text in both', async () => {
    expect(await foldedInSql(TRICKY)).toEqual(TRICKY.map(foldForSearch));
  });

  it('both fold ligatures, accents and case as a search needs', async () => {
    const [heart, name] = await foldedInSql(['Cœur', 'CHLOÉ']);
    expect([heart, name]).toEqual(['coeur', 'chloe']);
  });

  it('beyond French, JavaScript folds more than the stored search keys: a query folds its term in SQL', async () => {
    // æ, letters outside the SQL table and a decomposed accent fold in JavaScript only; the search keys stored in
    // generated columns keep them, so the server folds a term compared with them by the SQL expression.
    // (How lower() treats 'Ō' depends on the database's locale, so only the difference is checked.)
    const beyond = ['æther', 'Ōsaka', 'e\u0301'];
    expect(beyond.map(foldForSearch)).toEqual(['aether', 'osaka', 'e']);
    const inSql = await foldedInSql(beyond);
    beyond.forEach((text, i) => expect(inSql[i], text).not.toBe(foldForSearch(text)));
  });
});
