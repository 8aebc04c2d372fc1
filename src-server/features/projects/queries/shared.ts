import { sql, type SQL } from 'drizzle-orm';
import { foldForSearch } from '../../../db/schema';
import { rows, type Executor } from '../../../db/rows';
import { foldedLikeTerm } from './filters';

// ---- autocomplete ---------------------------------------------------------------------------------------------

const SEARCH_FIELDS: Record<'Project' | 'Target', Partial<Record<string, { from: SQL; column: SQL }>>> = {
  Project: {
    name: { from: sql`projects p`, column: sql`p.name` },
    clientName: { from: sql`projects p`, column: sql`p.client_name` },
  },
  Target: {
    projectName: { from: sql`projects p`, column: sql`p.name` },
    clientName: { from: sql`projects p`, column: sql`p.client_name` },
    actionCode: { from: sql`targets t`, column: sql`t.action_code` },
    type: { from: sql`targets t`, column: sql`t.type` },
    status: { from: sql`targets t`, column: sql`t.status` },
    populationCategory: { from: sql`targets t`, column: sql`t.population_category` },
    populationSample: { from: sql`targets t`, column: sql`t.population_sample` },
    advertId: { from: sql`targets t`, column: sql`t.advert_id::text` },
  },
};

/** Distinct values of a field containing the term (case and accents ignored), shortest first. */
export async function searchValues(db: Executor, label: 'Project' | 'Target', field: string, term: string, limit: number): Promise<string[] | null> {
  const source = SEARCH_FIELDS[label][field];
  if (!source) return null;
  const found = await rows<{ value: string }>(
    db,
    sql`SELECT value FROM (SELECT DISTINCT ${source.column} AS value FROM ${source.from} WHERE ${source.column} IS NOT NULL
          ${term ? sql`AND ${foldForSearch(source.column)} LIKE ${foldedLikeTerm(term)} ESCAPE '\\'` : sql``}) v
        ORDER BY length(value), value LIMIT ${limit}`,
  );
  return found.map((row) => row.value);
}
