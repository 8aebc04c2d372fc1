import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { LabAccount, LabProjectListItem, Tag } from '@shared/contract/laboratory';
import { TAG_LEVELS, TAG_TYPES } from '@shared/rules/laboratory';
import type { Database } from '../../db/client';
import { rows, type Executor } from '../../db/rows';
import { accounts, foldForSearch, labProjectAccounts, labProjects, labTags } from '../../db/schema';

/** SQL of laboratory projects. */

/** Deletes a project, its panel first in statements of 50,000 rows, so one huge cascade never holds the database long. */
export async function deleteProject(db: Executor, id: number): Promise<void> {
  for (;;) {
    const result = (await db.execute(
      sql`DELETE FROM lab_panel_members WHERE (project_id, line) IN (SELECT project_id, line FROM lab_panel_members WHERE project_id = ${id} LIMIT 50000)`,
    )) as unknown as { rowCount?: number; affectedRows?: number };
    if (!(result.rowCount ?? result.affectedRows)) break;
  }
  await db.execute(sql`DELETE FROM lab_projects WHERE id = ${id}`);
}

/**
 * Removes the pending projects whose loading instance stopped renewing their lease (src-server/jobs/lease.ts): a
 * load cut by its server's death, as a failed load is removed. Answers their ids.
 */
export async function removeExpiredLoads(db: Executor): Promise<number[]> {
  const expired = await rows<{ id: number }>(
    db,
    sql`SELECT id FROM lab_projects WHERE pending AND coalesce(lease_until, '-infinity') < now() ORDER BY id`,
  );
  for (const { id } of expired) await deleteProject(db, id);
  return expired.map((project) => project.id);
}

export type LabProjectRow = typeof labProjects.$inferSelect;

export async function projectRow(db: Database, id: number): Promise<LabProjectRow | undefined> {
  const [row] = await db.select().from(labProjects).where(eq(labProjects.id, id));
  return row;
}

/** Whether the account is on the project's Access list. */
export async function isGranted(db: Database, projectId: number, accountId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: labProjectAccounts.projectId })
    .from(labProjectAccounts)
    .where(and(eq(labProjectAccounts.projectId, projectId), eq(labProjectAccounts.accountId, accountId)));
  return Boolean(row);
}

/** Projects by name (case-insensitive, then id); only those granted to `grantedTo` when given. */
export async function listProjects(db: Database, options: { term?: string; grantedTo?: number }): Promise<LabProjectListItem[]> {
  const conditions = [sql`TRUE`];
  if (options.term) conditions.push(sql`strpos(lower(p.name), lower(${options.term})) > 0`);
  if (options.grantedTo !== undefined) {
    conditions.push(sql`EXISTS (SELECT 1 FROM lab_project_accounts a WHERE a.project_id = p.id AND a.account_id = ${options.grantedTo})`);
  }
  return rows<LabProjectListItem>(
    db,
    sql`SELECT p.id, p.name, p.specialty_id AS "specialtyId", p.pending, p.users_count AS "usersCount", p.matched_count AS "matchedCount",
          (SELECT count(*)::int FROM lab_tags t WHERE t.project_id = p.id) AS "tagsCount"
        FROM lab_projects p WHERE ${sql.join(conditions, sql` AND `)} ORDER BY lower(p.name), p.id LIMIT 5000`,
  );
}

export function toListItem(row: LabProjectRow, tagsCount: number): LabProjectListItem {
  return {
    id: row.id,
    name: row.name,
    specialtyId: row.specialtyId,
    pending: row.pending,
    usersCount: row.usersCount,
    matchedCount: row.matchedCount,
    tagsCount,
  };
}

export function toTag(row: typeof labTags.$inferSelect): Tag {
  return {
    id: row.id,
    projectId: row.projectId,
    name: row.name,
    type: (TAG_TYPES as readonly string[]).includes(row.type) ? (row.type as Tag['type']) : TAG_TYPES[0],
    level: (TAG_LEVELS as readonly string[]).includes(row.level) ? (row.level as Tag['level']) : TAG_LEVELS[0],
    content: row.content,
    linkTitle: row.linkTitle,
    link: row.link,
    query: row.query,
    params: row.params,
    usersCount: row.usersCount,
    version: row.version,
  };
}

export async function tagsOf(db: Executor & Pick<Database, 'select'>, projectId: number): Promise<Tag[]> {
  const found = await db.select().from(labTags).where(eq(labTags.projectId, projectId)).orderBy(asc(labTags.id));
  return found.map(toTag);
}

export async function accountsOf(db: Database, projectId: number): Promise<LabAccount[]> {
  return db
    .select({ id: accounts.id, username: accounts.email })
    .from(labProjectAccounts)
    .innerJoin(accounts, eq(accounts.id, labProjectAccounts.accountId))
    .where(eq(labProjectAccounts.projectId, projectId))
    .orderBy(asc(sql`lower(${accounts.email})`));
}

/** Accounts whose name or e-mail holds the term (accents and case aside), not on the project yet; 20 at most. */
export async function searchAccounts(db: Database, term: string, projectId: number): Promise<LabAccount[]> {
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db
    .select({ id: accounts.id, username: accounts.email })
    .from(accounts)
    .where(
      and(
        sql`${accounts.searchKey} LIKE ${foldForSearch(sql`${pattern}`)}`,
        sql`NOT EXISTS (SELECT 1 FROM lab_project_accounts a WHERE a.project_id = ${projectId} AND a.account_id = ${accounts.id})`,
      ),
    )
    .orderBy(asc(sql`lower(${accounts.email})`))
    .limit(20);
}

export async function existingAccountIds(db: Database, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const found = await db.select({ id: accounts.id }).from(accounts).where(inArray(accounts.id, ids));
  return new Set(found.map((row) => row.id));
}

/**
 * One field of a project's panel grouped by value: each value (null included) with the 0-based positions, in line
 * order, of the members having it, as 4-byte big-endian integers (one bytea per value, no row per member).
 * `column` is the field's trusted SQL expression over the member `m` and its matched app user `u`.
 */
export async function panelFieldValues(
  db: Executor,
  projectId: number,
  column: SQL,
  ofAppUser: boolean,
): Promise<{ value: string | null; positions: Uint8Array }[]> {
  const join = ofAppUser ? sql`LEFT JOIN app_users u ON u.id = m.app_user_id` : sql``;
  return rows(
    db,
    sql`SELECT f.v AS value, string_agg(int4send(f.p), ''::bytea) AS positions
        FROM (SELECT ${column} AS v, (row_number() OVER (ORDER BY m.line) - 1)::int AS p FROM lab_panel_members m ${join} WHERE m.project_id = ${projectId}) f
        GROUP BY f.v`,
  );
}
