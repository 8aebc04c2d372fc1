import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../src-server/db/client';

/**
 * A plain SQL evaluation of the membership semantics (docs/audiences.md), written independently of the engine:
 * the reference the property test and the benchmark compare the engine with. Never used by the server.
 */

interface Row {
  ownerAudience: number | null;
  ownerGroup: number | null;
  nodeId: number;
  label: string;
  value: string;
  type: string;
  kind: string;
  event: string | null;
  caping: number | null;
}

const ATTRIBUTE_SQL: Record<string, (value: SQL) => SQL> = {
  Profession: (v) => sql`u.profession_id::text = ${v}`,
  Specialty: (v) => sql`u.specialty_id::text = ${v}`,
  Title: (v) => sql`u.title = ${v}`,
  Area: (v) => sql`u.area = ${v}`,
  Country: (v) => sql`u.country_id::text = ${v}`,
  Zip: (v) => sql`(length(u.zipcode) >= 2 AND left(u.zipcode, 2) = ${v})`,
  Zipcode: (v) => sql`u.zipcode = ${v}`,
  Uga: (v) => sql`u.uga = ${v}`,
  Workplace: (v) => sql`u.workplace = ${v}`,
  Role: (v) => sql`${v} = ANY(u.roles)`,
  Feed: (v) => sql`${v} = ANY(u.feeds)`,
  App: (v) => sql`${v} = ANY(u.apps)`,
  User: (v) => sql`u.id::text = ${v}`,
};

async function relationships(db: Database, where: SQL): Promise<Row[]> {
  const result = (await db.execute(
    sql`SELECT r.audience_id AS "ownerAudience", r.group_id AS "ownerGroup", r.node_id AS "nodeId", n.label, n.value, r.type, r.kind, r.event, r.caping
        FROM relationships r JOIN nodes n ON n.id = r.node_id WHERE ${where} ORDER BY r.id`,
  )) as unknown as { rows: Row[] };
  return result.rows;
}

const filters = (row: Row) => row.label !== 'Keyword' && row.type !== 'SHOULD_TARGET';
const orAll = (parts: SQL[]) => (parts.length ? sql`(${sql.join(parts, sql` OR `)})` : sql`false`);
const andAll = (parts: SQL[]) => (parts.length ? sql`(${sql.join(parts, sql` AND `)})` : sql`true`);

/** The SQL condition on `u` (app_users) of one relationship's node. */
async function nodeCondition(db: Database, row: Row, depth = 0): Promise<SQL> {
  // A missing attribute matches nothing, so that `not` keeps the user (NULL would drop them).
  if (ATTRIBUTE_SQL[row.label]) return sql`coalesce(${ATTRIBUTE_SQL[row.label](sql`${row.value}`)}, false)`;
  if (row.label === 'Advert' || row.label === 'Document') {
    // One hashed set per criterion (not a count per user): the fair plain-SQL way, also for the benchmark.
    return sql`u.id IN (SELECT e.user_id FROM interaction_events e WHERE e.node_id = ${row.nodeId} ${row.event ? sql`AND e.event = ${row.event}` : sql``}
                        GROUP BY e.user_id HAVING count(*) >= ${Math.max(row.caping ?? 1, 1)})`;
  }
  if ((row.label === 'OrGroup' || row.label === 'AndGroup') && depth < 20) {
    const [group] = ((await db.execute(sql`SELECT label FROM nodes WHERE id = ${row.nodeId}`)) as unknown as { rows: { label: string }[] }).rows;
    const members = (await relationships(db, sql`r.group_id = ${row.nodeId}`)).filter(filters);
    const parts = await Promise.all(
      members.map(async (member) => {
        const condition = await nodeCondition(db, member, depth + 1);
        return member.kind === 'not' ? sql`NOT ${condition}` : condition;
      }),
    );
    return group?.label === 'AndGroup' ? andAll(parts) : orAll(parts);
  }
  return sql`false`;
}

/** The WHERE condition of a saved audience. */
export async function audienceCondition(db: Database, audienceId: number): Promise<SQL> {
  const rows = (await relationships(db, sql`r.audience_id = ${audienceId}`)).filter(filters);
  const byLabel = new Map<string, Row[]>();
  for (const row of rows) byLabel.set(row.label, [...(byLabel.get(row.label) ?? []), row]);
  const groups: SQL[] = [];
  for (const members of byLabel.values()) {
    const required = await Promise.all(members.filter((m) => m.kind === 'required').map((m) => nodeCondition(db, m)));
    const excluded = await Promise.all(members.filter((m) => m.kind === 'not').map((m) => nodeCondition(db, m)));
    groups.push(sql`(${required.length ? orAll(required) : sql`true`} AND NOT ${orAll(excluded)})`);
  }
  return andAll(groups);
}

export async function sqlAudienceMembers(db: Database, audienceId: number): Promise<number[]> {
  const condition = await audienceCondition(db, audienceId);
  const result = (await db.execute(sql`SELECT u.id FROM app_users u WHERE ${condition} ORDER BY u.id`)) as unknown as { rows: { id: number }[] };
  return result.rows.map((row) => row.id);
}

export async function sqlAudienceSize(db: Database, audienceId: number): Promise<number> {
  const condition = await audienceCondition(db, audienceId);
  const result = (await db.execute(sql`SELECT count(*)::int AS n FROM app_users u WHERE ${condition}`)) as unknown as { rows: { n: number }[] };
  return result.rows[0].n;
}
