import { sql, type SQL } from 'drizzle-orm';
import { LAB_MESSAGES } from '@shared/messages/laboratory';
import { parseFilter, type FilterNode, type FilterValue } from '@shared/rules/filter-language';
import { APP_USER_FIELDS, critField, fromBase64, parseTagParams, tagQueryFields, type TagParams } from '@shared/rules/laboratory';
import type { Executor } from '../../db/rows';
import { filterToSql } from '../../db/filter-sql';
import { HttpError } from '../../errors';

/** The SQL column of each field of a tag query: the panel member `m`, the matched app user `u` (ids as text). */
function columnsOf(crits: readonly number[]): Record<string, SQL> {
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

/** Every column is text: numbers are compared as the text they are written as ('2' = 2). */
function textValues(node: FilterNode): FilterNode {
  switch (node.kind) {
    case 'and':
    case 'or':
      return { ...node, left: textValues(node.left), right: textValues(node.right) };
    case 'not':
      return { ...node, operand: textValues(node.operand) };
    case 'compare':
      return { ...node, value: asText(node.value) };
    case 'in':
      return { ...node, values: node.values.map(asText) };
  }
}

function fieldsOf(node: FilterNode | null, into = new Set<string>()): Set<string> {
  if (!node) return into;
  if (node.kind === 'not') fieldsOf(node.operand, into);
  else if (node.kind === 'compare' || node.kind === 'in') into.add(node.field);
  else {
    fieldsOf(node.left, into);
    fieldsOf(node.right, into);
  }
  return into;
}

export interface CompiledTagQuery {
  where: SQL;
  /** The query names a field of the matched app user: the count joins app_users. */
  usesAppUser: boolean;
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
  const textParams: TagParams = Object.fromEntries(
    Object.entries(params).map(([name, value]) => [name, Array.isArray(value) ? value.map(String) : String(value)]),
  );
  let where: SQL;
  try {
    where = filterToSql(node, { columns: columnsOf(crits), params: textParams });
  } catch (error) {
    if (error instanceof Error && error.name === 'FilterError') throw new HttpError(400, error.message);
    throw error;
  }
  const userFields = new Set<string>(APP_USER_FIELDS);
  return { where, usesAppUser: [...fieldsOf(node)].some((field) => userFields.has(field)) };
}

/** Panel members of a project the compiled query selects. */
export async function countPanel(db: Executor, projectId: number, compiled: CompiledTagQuery): Promise<number> {
  const join = compiled.usesAppUser ? sql`LEFT JOIN app_users u ON u.id = m.app_user_id` : sql``;
  const result = (await db.execute(
    sql`SELECT count(*)::int AS n FROM lab_panel_members m ${join} WHERE m.project_id = ${projectId} AND (${compiled.where})`,
  )) as unknown as { rows: { n: number }[] };
  return result.rows[0].n;
}
