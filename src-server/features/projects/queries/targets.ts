import { sql, type SQL } from 'drizzle-orm';
import type { Target, TargetListBody, TargetListColumn } from '@shared/contract/projects/targets';
import { DEFAULT_TARGET_LIST_STATUSES, DEFAULT_TARGET_STATUS, statusRank } from '@shared/rules/projects';
import { foldForSearch } from '../../../db/schema';
import { param, rows, type Executor } from '../../../db/rows';
import { and, between, foldedLikeTerm, inList, likeTerm } from './filters';
import type { ProjectRow, TargetRow } from './rows';

// ---- targets ---------------------------------------------------------------------------------------------------

/** Target columns as the API names them; bigint and numeric read as float8 so both drivers give numbers. */
export const targetColumns = sql`t.id, t.project_id AS "projectId", p.name AS "projectName", p.client_name AS "clientName", t.position,
  t.action_code AS "actionCode", t.status, t.type, t.advert_id AS "advertId", t.tool_id AS "toolId", t.promote_in_search AS "promoteInSearch",
  t.population_category AS "populationCategory", t.population_sample AS "populationSample", t.population_size AS "populationSize",
  t.goal_views::float8 AS "goalViews", t.goal_days AS "goalDays", t.goal_shipments::float8 AS "goalShipments",
  t.start_date::float8 AS "startDate", t.end_date::float8 AS "endDate", t.check_date::float8 AS "checkDate",
  t.quotation_signed_month::float8 AS "quotationSignedMonth", t.initial_quotation_date::float8 AS "initialQuotationDate",
  t.revenue::float8 AS revenue, t.release_date_diff AS "releaseDateDiff", t.delay_reason AS "delayReason",
  t.revenue_delay_impact::float8 AS "revenueDelayImpact", t.actor, t.key_account_id AS "keyAccountId", ka.name AS "keyAccountName",
  t.comment, t.is_new AS "isNew", t.version, floor(extract(epoch FROM t.updated_at) * 1000)::float8 AS "updatedAt",
  (SELECT e.name FROM accounts e WHERE e.id = t.updated_by) AS "editorName"`;
export const targetJoins = sql`targets t JOIN projects p ON p.id = t.project_id LEFT JOIN accounts ka ON ka.id = t.key_account_id`;

/**
 * A target as the API answers it, field by field: the lists send these without the response schema's pass
 * (preSerialized), so nothing but the contract's fields may be copied here.
 */
export function toTarget(row: TargetRow): Target {
  return {
    id: row.id,
    projectId: row.projectId,
    projectName: row.projectName,
    clientName: row.clientName,
    position: row.position,
    actionCode: row.actionCode,
    status: row.status,
    type: row.type,
    advertId: row.advertId,
    advertSource: row.advertId == null ? null : `/adverts/edit/${row.advertId}`,
    toolId: row.toolId,
    promoteInSearch: row.promoteInSearch,
    populationCategory: row.populationCategory,
    populationSample: row.populationSample,
    populationSize: row.populationSize,
    goal: { views: row.goalViews, days: row.goalDays, shipments: row.goalShipments },
    startDate: row.startDate,
    endDate: row.endDate,
    checkDate: row.checkDate,
    quotationSignedMonth: row.quotationSignedMonth,
    initialQuotationDate: row.initialQuotationDate,
    revenue: row.revenue,
    releaseDateDiff: row.releaseDateDiff,
    delayReason: row.delayReason,
    revenueDelayImpact: row.revenueDelayImpact,
    actor: row.actor,
    keyAccount: row.keyAccountId == null ? null : { id: row.keyAccountId, name: row.keyAccountName ?? '' },
    comment: row.comment,
    isNew: row.isNew,
    version: row.version,
  };
}

/** Several targets with who made their newest change and when, their rows locked until the transaction ends. */
export async function lockedTargets(db: Executor, ids: number[]): Promise<(Target & { updatedAt: number; editorName: string | null })[]> {
  const found = await rows<TargetRow>(
    db,
    sql`SELECT ${targetColumns} FROM ${targetJoins} WHERE t.id = ANY(${param(ids)}::int[]) ORDER BY t.id FOR UPDATE OF t`,
  );
  return found.map((row) => ({ ...toTarget(row), updatedAt: row.updatedAt, editorName: row.editorName }));
}

export async function targetById(db: Executor, id: number): Promise<Target | undefined> {
  const [row] = await rows<TargetRow>(db, sql`SELECT ${targetColumns} FROM ${targetJoins} WHERE t.id = ${id}`);
  return row && toTarget(row);
}

export async function targetsOfProjects(db: Executor, projectIds: number[]): Promise<Target[]> {
  if (!projectIds.length) return [];
  const found = await rows<TargetRow>(
    db,
    // Filtering on the project side only keeps the row estimate right (a filter on both sides made the planner
    // expect one row and scan the accounts for each target: 20× slower).
    sql`SELECT ${targetColumns} FROM ${targetJoins} WHERE p.id = ANY(${param(projectIds)}::int[]) ORDER BY t.project_id, t.position, t.id`,
  );
  return found.map(toTarget);
}

// ---- target list and export ---------------------------------------------------------------------------------------

const SORT_COLUMNS: Record<TargetListColumn, SQL> = {
  projectName: sql`lower(p.name)`,
  clientName: sql`lower(p.client_name)`,
  advertId: sql`t.advert_id`,
  actionCode: sql`t.action_code`,
  status: sql`t.status_rank`,
  type: sql`t.type`,
  populationCategory: sql`t.population_category`,
  populationSample: sql`t.population_sample`,
  populationSize: sql`t.population_size`,
  startDate: sql`t.start_date`,
  endDate: sql`t.end_date`,
  checkDate: sql`t.check_date`,
  goal: sql`(t.goal_views + t.goal_days + t.goal_shipments)`,
  id: sql`t.id`,
};

/** WHERE and ORDER BY of the target list and its export (same filters, so the file is what the table shows). */
export function targetListClauses(body: Pick<TargetListBody, 'term' | 'filters' | 'orderBy' | 'order'>): { where: SQL; orderBy: SQL } {
  const f = body.filters;
  const statuses = f.status ?? DEFAULT_TARGET_LIST_STATUSES;
  const term = body.term?.trim();
  // Every arm is indexed, so PostgreSQL ORs bitmaps instead of reading every target: the three columns through the
  // trigram index, the advert id through its btree, the project name through the projects' trigram index
  // (search_key, the folded name and client, contains every folded name's match) and then targets_project_idx.
  const termCondition = term
    ? sql`(t.project_id = ANY(ARRAY(SELECT id FROM projects WHERE search_key LIKE ${foldedLikeTerm(term)} ESCAPE '\\'
            AND ${foldForSearch(sql`name`)} LIKE ${foldedLikeTerm(term)} ESCAPE '\\'))
          OR lower(t.action_code) LIKE ${likeTerm(term.toLowerCase())} ESCAPE '\\'
          OR lower(t.population_sample) LIKE ${likeTerm(term.toLowerCase())} ESCAPE '\\' OR lower(t.population_category) LIKE ${likeTerm(term.toLowerCase())} ESCAPE '\\'
          ${/^\d{1,9}$/.test(term) ? sql`OR t.advert_id = ${Number(term)}` : sql``})`
    : undefined;
  const where = and([
    statuses.length ? rankCondition(statuses.map(statusRank)) : undefined,
    inList(sql`p.name`, f.projectName, 'text[]'),
    inList(sql`p.client_name`, f.clientName, 'text[]'),
    inList(sql`t.advert_id`, f.advertId, 'int[]'),
    inList(sql`t.action_code`, f.actionCode, 'text[]'),
    inList(sql`t.type`, f.type, 'text[]'),
    inList(sql`t.population_category`, f.populationCategory, 'text[]'),
    inList(sql`t.population_sample`, f.populationSample, 'text[]'),
    inList(sql`t.population_size`, f.populationSize, 'int[]'),
    between(sql`t.start_date`, f.startDate),
    between(sql`t.end_date`, f.endDate),
    between(sql`t.check_date`, f.checkDate),
    inList(sql`t.key_account_id`, f.keyAccount, 'int[]'),
    termCondition,
  ]);
  const direction = sql.raw(body.order);
  const column = SORT_COLUMNS[body.orderBy];
  // PostgreSQL's own null placement (last ascending, first descending): what a backward index scan gives.
  const orderBy = body.orderBy === 'id' ? sql`t.id ${direction}` : sql`${column} ${direction}, t.id ${direction}`;
  return { where, orderBy };
}

/**
 * Statuses as ranks: a run of consecutive ranks (the default four) is a range, which PostgreSQL 15 can read in
 * order from the (filter, status_rank, id) indexes; = ANY would make it sort every match.
 */
function rankCondition(ranks: number[]): SQL {
  const sorted = [...new Set(ranks)].sort((a, b) => a - b);
  const contiguous = sorted.every((rank, index) => index === 0 || rank === sorted[index - 1] + 1);
  return contiguous ? sql`t.status_rank BETWEEN ${sorted[0]} AND ${sorted.at(-1)}` : sql`t.status_rank = ANY(${param(sorted)}::smallint[])`;
}

export function listTargets(db: Executor, body: TargetListBody) {
  const { where, orderBy } = targetListClauses(body);
  return rows<TargetRow & { isProjectCommented: boolean }>(
    db,
    sql`SELECT ${targetColumns}, EXISTS (SELECT 1 FROM project_comments c WHERE c.project_id = p.id) AS "isProjectCommented"
        FROM ${targetJoins} WHERE ${where} ORDER BY ${orderBy} LIMIT ${body.limit} OFFSET ${body.skip}`,
  );
}

// ---- writes of targets -----------------------------------------------------------------------------------------

export async function actionCodesOfProject(db: Executor, projectId: number): Promise<string[]> {
  const found = await rows<{ code: string }>(
    db,
    sql`SELECT action_code AS code FROM targets WHERE project_id = ${projectId} AND action_code IS NOT NULL`,
  );
  return found.map((row) => row.code);
}

export interface NewTargetLine {
  actionCode: string;
  revenue?: number | null;
  comment?: string | null;
  date?: number | null;
  type?: string | null;
  goal?: { views: number; days: number; shipments: number };
}

/** Inserts targets in the default status at the end of a project, with the project's actor and key account. */
export async function insertTargetLines(
  db: Executor,
  project: Pick<ProjectRow, 'id' | 'actor' | 'keyAccountId'>,
  lines: NewTargetLine[],
): Promise<void> {
  if (!lines.length) return;
  const [{ next }] = await rows<{ next: number }>(
    db,
    sql`SELECT coalesce(max(position) + 1, 0)::int AS next FROM targets WHERE project_id = ${project.id}`,
  );
  // 15 parameters a line: one INSERT of a 6,000-line quote passed PostgreSQL's 65,535 bind parameters.
  for (let start = 0; start < lines.length; start += TARGET_INSERT_BATCH) {
    await insertTargetBatch(db, project, lines.slice(start, start + TARGET_INSERT_BATCH), next + start);
  }
}

/** Lines written per INSERT: 2,000 × 15 = 30,000 bind parameters, under PostgreSQL's 65,535. */
const TARGET_INSERT_BATCH = 2000;

async function insertTargetBatch(
  db: Executor,
  project: Pick<ProjectRow, 'id' | 'actor' | 'keyAccountId'>,
  lines: NewTargetLine[],
  next: number,
): Promise<void> {
  const values = lines.map(
    (line, index) =>
      sql`(${project.id}, ${next + index}, ${line.actionCode}, ${DEFAULT_TARGET_STATUS}, ${statusRank(DEFAULT_TARGET_STATUS)}, ${line.type ?? null}, ${project.actor}, ${project.keyAccountId},
           ${line.revenue ?? null}, ${line.comment ?? null}, ${line.date ?? null}, ${line.date ?? null}, ${line.goal?.views ?? 0}, ${line.goal?.days ?? 0}, ${line.goal?.shipments ?? 0})`,
  );
  await db.execute(sql`INSERT INTO targets (project_id, position, action_code, status, status_rank, type, actor, key_account_id, revenue, comment,
    quotation_signed_month, initial_quotation_date, goal_views, goal_days, goal_shipments) VALUES ${sql.join(values, sql`, `)}`);
}

export async function targetIdByActionCode(db: Executor, projectId: number, actionCode: string): Promise<number> {
  const [{ id }] = await rows<{ id: number }>(db, sql`SELECT id FROM targets WHERE project_id = ${projectId} AND action_code = ${actionCode}`);
  return id;
}

/** API field → column of the targets table, for the fields written as they come. */
const PLAIN_TARGET_COLUMNS = {
  actionCode: 'action_code',
  type: 'type',
  advertId: 'advert_id',
  toolId: 'tool_id',
  populationCategory: 'population_category',
  populationSample: 'population_sample',
  populationSize: 'population_size',
  startDate: 'start_date',
  endDate: 'end_date',
  checkDate: 'check_date',
  quotationSignedMonth: 'quotation_signed_month',
  initialQuotationDate: 'initial_quotation_date',
  revenue: 'revenue',
  releaseDateDiff: 'release_date_diff',
  delayReason: 'delay_reason',
  revenueDelayImpact: 'revenue_delay_impact',
  actor: 'actor',
  comment: 'comment',
  isNew: 'is_new',
} as const satisfies Partial<Record<keyof Target, string>>;

/** Writes what differs between a target and its next state, plus a new goal or key account when given. */
export async function updateTargetFields(
  db: Executor,
  current: Target,
  next: Target,
  extra: { goal?: { views: number; days: number; shipments: number }; keyAccount?: number | null },
  by: number | null = null,
): Promise<void> {
  const sets: SQL[] = [sql`updated_at = now(), version = version + 1, updated_by = ${by}`];
  for (const [field, column] of Object.entries(PLAIN_TARGET_COLUMNS) as [keyof typeof PLAIN_TARGET_COLUMNS, string][]) {
    if (next[field] !== current[field]) sets.push(sql`${sql.identifier(column)} = ${next[field]}`);
  }
  if (next.status !== current.status) sets.push(sql`status = ${next.status}, status_rank = ${statusRank(next.status)}`);
  if (extra.goal) sets.push(sql`goal_views = ${extra.goal.views}, goal_days = ${extra.goal.days}, goal_shipments = ${extra.goal.shipments}`);
  if (extra.keyAccount !== undefined) sets.push(sql`key_account_id = ${extra.keyAccount}`);
  await db.execute(sql`UPDATE targets SET ${sql.join(sets, sql`, `)} WHERE id = ${current.id}`);
}

/** Holds the advert's row until the transaction ends; answers its type, or undefined when it does not exist. */
export async function lockAdvert(db: Executor, advertId: number): Promise<{ type: string | null } | undefined> {
  const [found] = await rows<{ type: string | null }>(db, sql`SELECT type FROM adverts WHERE id = ${advertId} FOR UPDATE`);
  return found;
}

/** Another target than `targetId` linked to the advert, if any. */
export async function otherTargetOfAdvert(db: Executor, advertId: number, targetId: number) {
  const [other] = await rows<{ id: number; actionCode: string | null }>(
    db,
    sql`SELECT id, action_code AS "actionCode" FROM targets WHERE advert_id = ${advertId} AND id <> ${targetId} ORDER BY id LIMIT 1`,
  );
  return other;
}

export async function deleteTarget(db: Executor, id: number): Promise<boolean> {
  const deleted = await rows(db, sql`DELETE FROM targets WHERE id = ${id} RETURNING id`);
  return deleted.length > 0;
}

/** Unlinks a target's advert and tool; answers whether the target was there. */
export async function unlinkTarget(db: Executor, id: number): Promise<boolean> {
  const updated = await rows(
    db,
    sql`UPDATE targets SET advert_id = NULL, tool_id = NULL, updated_at = now(), version = version + 1 WHERE id = ${id} RETURNING id`,
  );
  return updated.length > 0;
}

/**
 * A copy of a target at `position` (lines at or after it move down one) under a new code. The copy keeps the
 * line's plan (type, population, goal, dates, amounts) but not its advert or tool: an advert serves one action.
 */
export async function insertTargetCopy(
  db: Executor,
  original: Pick<Target, 'id' | 'projectId'>,
  position: number,
  actionCode: string,
): Promise<number> {
  await db.execute(sql`UPDATE targets SET position = position + 1 WHERE project_id = ${original.projectId} AND position >= ${position}`);
  const [{ id }] = await rows<{ id: number }>(
    db,
    sql`INSERT INTO targets (project_id, position, action_code, status, status_rank, type, promote_in_search, population_category, population_sample,
          population_size, goal_views, goal_days, goal_shipments, start_date, end_date, check_date, quotation_signed_month, initial_quotation_date,
          revenue, release_date_diff, delay_reason, revenue_delay_impact, actor, key_account_id, comment, is_new)
        SELECT project_id, ${position}, ${actionCode}, ${DEFAULT_TARGET_STATUS}, ${statusRank(DEFAULT_TARGET_STATUS)}, type, promote_in_search, population_category,
          population_sample, population_size, goal_views, goal_days, goal_shipments, start_date, end_date, check_date, quotation_signed_month,
          initial_quotation_date, revenue, release_date_diff, delay_reason, revenue_delay_impact, actor, key_account_id, comment, TRUE
        FROM targets WHERE id = ${original.id} RETURNING id`,
  );
  return id;
}
