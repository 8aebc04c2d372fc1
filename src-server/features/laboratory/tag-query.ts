import { sql, type SQL } from 'drizzle-orm';
import { LAB_MESSAGES } from '@shared/messages/laboratory';
import { parseFilter, type FilterNode, type FilterValue } from '@shared/rules/filter-language';
import { excludes, visitFilter } from '@shared/rules/filter-visit';
import { APP_USER_FIELDS, critField, fromBase64, parseTagParams, tagQueryFields } from '@shared/rules/laboratory';
import type { Executor } from '../../db/rows';
import { filterToSql } from '../../db/filter-sql';
import { HttpError } from '../../errors';
import type { TextParams } from './panel-index';

/** The SQL column of each field of a tag query: the panel member `m`, the matched app user `u` (ids as text). */
export function columnsOf(crits: readonly number[]): Record<string, SQL> {
  const columns: Record<string, SQL> = { NAME: sql`m.name`, SURNAME: sql`m.surname`, GENDER: sql`m.gender` };
  // n comes from the project's own CRIT_nn numbers (integers), never from the query text.
  for (const n of crits) columns[critField(n)] = sql.raw(`m.crits[${Math.trunc(n)}]`);
  Object.assign(columns, {
    profession: sql`u.profession_id::text`,
    specialty: sql`u.specialty_id::text`,
    title: sql`u.title`,
    area: sql`u.area`,
    country: sql`u.country_id::text`,
    zipcode: sql`u.zipcode`,
    uga: sql`u.uga`,
    workplace: sql`u.workplace`,
  });
  return columns;
}

const asText = (value: FilterValue): FilterValue => (value.kind === 'literal' ? { kind: 'literal', value: String(value.value) } : value);

/**
 * Every column is text: numbers are compared as the text they are written as ('2' = 2). The query comes back with
 * NOT pushed down to its comparisons (filter-visit.ts), as the panel index reads it.
 */
function textValues(node: FilterNode): FilterNode {
  return visitFilter<FilterNode>(node, {
    condition: (leaf, negated) =>
      leaf.kind === 'compare'
        ? { ...leaf, operator: excludes(leaf, negated) ? '!=' : '=', value: asText(leaf.value) }
        : { ...leaf, negated: excludes(leaf, negated), values: leaf.values.map(asText) },
    combine: (operands, conjunction) => {
      let chain: FilterNode | null = null;
      for (const operand of operands) chain = chain ? { kind: conjunction ? 'and' : 'or', left: chain, right: operand } : operand;
      return chain!;
    },
  });
}

/** The fields a query names. */
function fieldsOf(node: FilterNode | null): Set<string> {
  if (!node) return new Set();
  return visitFilter<Set<string>>(node, {
    condition: (leaf) => new Set([leaf.field]),
    combine: (operands) => {
      const fields = new Set<string>();
      for (const named of operands) for (const field of named) fields.add(field);
      return fields;
    },
  });
}

export interface CompiledTagQuery {
  where: SQL;
  /** The query names a field of the matched app user: the count joins app_users. */
  usesAppUser: boolean;
  /** The parsed query, every value as text, for the in-memory count (panel-index.ts); null selects everyone. */
  node: FilterNode | null;
  params: TextParams;
  /** Each field the query names, with its SQL column and whether it is the matched app user's. */
  fields: { field: string; column: SQL; ofAppUser: boolean }[];
}

/**
 * A tag's query and params (base64 as they travel, spec §3) as an SQL condition over the panel: parsed by the
 * shared filter language against the project's fields, every value bound as a parameter. A mistake is a 400 with
 * the language's French message naming its position.
 */
export function compileTagQuery(query64: string, params64: string, crits: readonly number[]): CompiledTagQuery {
  const text = fromBase64(query64);
  const paramsText = fromBase64(params64);
  if (text === undefined || paramsText === undefined) throw new HttpError(400, LAB_MESSAGES.invalidBase64);
  const params = parseTagParams(paramsText);
  if (!params) throw new HttpError(400, LAB_MESSAGES.invalidParams);
  const parsed = parseFilter(text, tagQueryFields(crits));
  if (!parsed.ok) throw new HttpError(400, parsed.message);
  const node = parsed.node ? textValues(parsed.node) : null;
  const textParams: TextParams = Object.fromEntries(
    Object.entries(params).map(([name, value]) => [name, Array.isArray(value) ? value.map(String) : String(value)]),
  );
  const columns = columnsOf(crits);
  let where: SQL;
  try {
    where = filterToSql(node, { columns, params: textParams });
  } catch (error) {
    if (error instanceof Error && error.name === 'FilterError') throw new HttpError(400, error.message);
    throw error;
  }
  const userFields = new Set<string>(APP_USER_FIELDS);
  const fields = [...fieldsOf(node)].map((field) => ({ field, column: columns[field], ofAppUser: userFields.has(field) }));
  return { where, usesAppUser: fields.some((field) => field.ofAppUser), node, params: textParams, fields };
}

/** Panel members of a project the compiled query selects, counted by the database (the reference of the in-memory count). */
export async function countPanel(db: Executor, projectId: number, compiled: CompiledTagQuery): Promise<number> {
  const join = compiled.usesAppUser ? sql`LEFT JOIN app_users u ON u.id = m.app_user_id` : sql``;
  const result = (await db.execute(
    sql`SELECT count(*)::int AS n FROM lab_panel_members m ${join} WHERE m.project_id = ${projectId} AND (${compiled.where})`,
  )) as unknown as { rows: { n: number }[] };
  return result.rows[0].n;
}
