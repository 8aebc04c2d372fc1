import { sql, type SQL } from 'drizzle-orm';
import type { ProjectListBody, ProjectListItem, ProjectListTarget } from '@shared/contract/projects/projects';
import { DEFAULT_PROJECT_STATUS } from '@shared/rules/projects';
import { param, rows, type Executor } from '../../../db/rows';
import { and, between, foldedLikeTerm, inList, withinNumbers } from './filters';
import type { ProjectRow, TargetRow } from './rows';

/** Target conditions of the project list (a project matches when one of its targets does). */
function projectTargetConditions(body: ProjectListBody): SQL | undefined {
  const parts = [
    inList(sql`t.status`, body.targetStatus, 'text[]'),
    inList(sql`t.type`, body.type, 'text[]'),
    inList(sql`t.action_code`, body.actionCodes, 'text[]'),
    inList(sql`t.population_category`, body.populationCategory, 'text[]'),
    inList(sql`t.population_sample`, body.populationSample, 'text[]'),
    withinNumbers(sql`t.population_size`, body.populationSize),
    withinNumbers(sql`t.revenue`, body.revenue),
    between(sql`t.start_date`, body.startDate),
    between(sql`t.check_date`, body.checkDate),
    between(sql`t.end_date`, body.endDate),
  ].filter((part): part is SQL => part !== undefined);
  return parts.length ? sql.join(parts, sql` AND `) : undefined;
}

export const projectColumns = sql`p.id, p.name, p.client_name AS "clientName", p.key_account_id AS "keyAccountId", ka.name AS "keyAccountName",
  p.actor, p.action_code AS "actionCode", p.status, p.estimate_id AS "estimateId", floor(extract(epoch FROM p.created_at) * 1000)::float8 AS "createdAt",
  EXISTS (SELECT 1 FROM project_comments c WHERE c.project_id = p.id) AS "isProjectCommented",
  p.version, floor(extract(epoch FROM p.updated_at) * 1000)::float8 AS "updatedAt", (SELECT e.name FROM accounts e WHERE e.id = p.updated_by) AS "editorName"`;

/** One page of projects matching the list's filters (spec §3 Project list filters). */
export async function listProjects(db: Executor, body: ProjectListBody): Promise<ProjectListItem[]> {
  const statuses = body.projectStatus ?? body.status;
  const targetConditions = projectTargetConditions(body);
  const where = and([
    statuses.length ? inList(sql`p.status`, statuses, 'text[]') : undefined,
    body.term ? sql`p.search_key LIKE ${foldedLikeTerm(body.term)} ESCAPE '\\'` : undefined,
    inList(sql`p.name`, body.name, 'text[]'),
    inList(sql`p.client_name`, body.clientName, 'text[]'),
    inList(sql`p.key_account_id`, body.keyAccount, 'int[]'),
    targetConditions ? sql`EXISTS (SELECT 1 FROM targets t WHERE t.project_id = p.id AND ${targetConditions})` : undefined,
  ]);
  const direction = sql.raw(body.order);
  const orderBy =
    body.orderBy === 'name'
      ? sql`lower(p.name) ${direction}, p.id ${direction}`
      : body.orderBy === 'clientName'
        ? sql`lower(p.client_name) ${direction}, p.id ${direction}`
        : sql`p.id ${direction}`;
  const page = await rows<ProjectRow>(
    db,
    sql`SELECT ${projectColumns} FROM projects p LEFT JOIN accounts ka ON ka.id = p.key_account_id
        WHERE ${where} ORDER BY ${orderBy} LIMIT ${body.limit} OFFSET ${body.skip}`,
  );
  if (!page.length) return [];
  // The page's targets as plain rows, in a second statement, with only the columns the list shows: building the
  // whole targets' JSON in the database (json_build_object, 30 fields × 50 targets × 8 projects) cost PostgreSQL
  // 8 ms of CPU a page and the answer weighed 286 kB.
  const targets = await rows<ProjectListTargetRow & { projectId: number }>(
    db,
    sql`SELECT t.project_id AS "projectId", t.id, t.action_code AS "actionCode", t.status, t.type, t.advert_id AS "advertId",
          t.population_category AS "populationCategory", t.population_sample AS "populationSample", t.goal_views::float8 AS "goalViews",
          t.goal_days AS "goalDays", t.goal_shipments::float8 AS "goalShipments", t.start_date::float8 AS "startDate",
          t.check_date::float8 AS "checkDate", t.end_date::float8 AS "endDate"
        FROM targets t WHERE t.project_id = ANY(${param(page.map((project) => project.id))}::int[]) ORDER BY t.project_id, t.position, t.id`,
  );
  const byProject = new Map<number, ProjectListTarget[]>(page.map((project) => [project.id, []]));
  for (const row of targets) byProject.get(row.projectId)!.push(toProjectListTarget(row));
  return page.map((row) => toProjectListItem(row, byProject.get(row.id)!));
}

type ProjectListTargetRow = Pick<
  TargetRow,
  | 'id'
  | 'actionCode'
  | 'status'
  | 'type'
  | 'advertId'
  | 'populationCategory'
  | 'populationSample'
  | 'goalViews'
  | 'goalDays'
  | 'goalShipments'
  | 'startDate'
  | 'checkDate'
  | 'endDate'
>;

/** A target row of the project list, field by field (sent without the response schema's pass, like toTarget). */
function toProjectListTarget(row: ProjectListTargetRow): ProjectListTarget {
  return {
    id: row.id,
    actionCode: row.actionCode,
    status: row.status,
    type: row.type,
    advertId: row.advertId,
    populationCategory: row.populationCategory,
    populationSample: row.populationSample,
    goal: { views: row.goalViews, days: row.goalDays, shipments: row.goalShipments },
    startDate: row.startDate,
    checkDate: row.checkDate,
    endDate: row.endDate,
  };
}

/** A project of the list, field by field (sent without the response schema's pass, like toTarget). */
export function toProjectListItem(row: ProjectRow, targets: ProjectListTarget[]): ProjectListItem {
  return {
    id: row.id,
    name: row.name,
    clientName: row.clientName,
    keyAccount: row.keyAccountId == null ? null : { id: row.keyAccountId, name: row.keyAccountName ?? '' },
    actor: row.actor,
    actionCode: row.actionCode,
    status: row.status,
    estimateId: row.estimateId,
    targets,
    isProjectCommented: row.isProjectCommented,
    createdAt: row.createdAt,
    version: row.version,
  };
}

export async function projectRowById(db: Executor, id: number): Promise<ProjectRow | undefined> {
  const [row] = await rows<ProjectRow>(
    db,
    sql`SELECT ${projectColumns} FROM projects p LEFT JOIN accounts ka ON ka.id = p.key_account_id WHERE p.id = ${id}`,
  );
  return row;
}

// ---- writes of projects ----------------------------------------------------------------------------------------

export async function isCsmAccount(db: Executor, accountId: number): Promise<boolean> {
  const found = await rows(db, sql`SELECT id FROM accounts WHERE id = ${accountId} AND 'CSM' = ANY(roles)`);
  return found.length > 0;
}

/** Holds the project's row until the transaction ends (two additions of targets at once would pick the same code). */
export async function lockProject(db: Executor, projectId: number): Promise<void> {
  await db.execute(sql`SELECT id FROM projects WHERE id = ${projectId} FOR UPDATE`);
}

export interface NewProject {
  name: string;
  clientName: string;
  keyAccountId: number | null | undefined;
  actor: string | null | undefined;
  actionCode: string;
  estimateId?: string;
}

/** A new project in the default status; answers what inserting its targets needs. */
export async function insertProject(db: Executor, project: NewProject): Promise<Pick<ProjectRow, 'id' | 'actor' | 'keyAccountId'>> {
  const [created] = await rows<Pick<ProjectRow, 'id' | 'actor' | 'keyAccountId'>>(
    db,
    sql`INSERT INTO projects (name, client_name, key_account_id, actor, action_code, status, estimate_id)
        VALUES (${project.name}, ${project.clientName}, ${project.keyAccountId}, ${project.actor}, ${project.actionCode}, ${DEFAULT_PROJECT_STATUS},
          ${project.estimateId ?? null})
        RETURNING id, actor, key_account_id AS "keyAccountId"`,
  );
  return created;
}

export interface ProjectChanges {
  name?: string;
  clientName?: string;
  keyAccount?: number | null;
  actor?: string | null;
  status?: string;
  actionCode?: string | null;
}

/**
 * Writes the fields given (undefined: left as they are) and moves the version on, when the project is still at
 * `basedOn` (absent: whatever its version); answers whether it was written (docs/architecture.md, "Versions and conflicts").
 */
export async function updateProject(db: Executor, id: number, changes: ProjectChanges, by: number | null, basedOn?: number): Promise<boolean> {
  const sets: SQL[] = [sql`updated_at = now(), version = version + 1, updated_by = ${by}`];
  if (changes.name !== undefined) sets.push(sql`name = ${changes.name}`);
  if (changes.clientName !== undefined) sets.push(sql`client_name = ${changes.clientName}`);
  if (changes.keyAccount !== undefined) sets.push(sql`key_account_id = ${changes.keyAccount}`);
  if (changes.actor !== undefined) sets.push(sql`actor = ${changes.actor}`);
  if (changes.status !== undefined) sets.push(sql`status = ${changes.status}`);
  if (changes.actionCode !== undefined) sets.push(sql`action_code = ${changes.actionCode}`);
  const stale = basedOn === undefined ? sql`` : sql` AND version = ${basedOn}`;
  const updated = await rows(db, sql`UPDATE projects SET ${sql.join(sets, sql`, `)} WHERE id = ${id}${stale} RETURNING id`);
  return updated.length > 0;
}

export async function setProjectEstimate(db: Executor, projectId: number, estimateId: string): Promise<void> {
  await db.execute(sql`UPDATE projects SET estimate_id = ${estimateId}, updated_at = now(), version = version + 1 WHERE id = ${projectId}`);
}

/** Deletes a project (its targets, comments and briefing with it); answers whether it was there. */
export async function deleteProject(db: Executor, id: number): Promise<boolean> {
  const deleted = await rows(db, sql`DELETE FROM projects WHERE id = ${id} RETURNING id`);
  return deleted.length > 0;
}

export function projectNames(db: Executor, ids: number[]) {
  return rows<{ id: number; name: string }>(db, sql`SELECT id, name FROM projects WHERE id = ANY(${param(ids)}::int[]) ORDER BY id`);
}
