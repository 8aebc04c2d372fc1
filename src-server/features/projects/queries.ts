import { sql, type SQL } from 'drizzle-orm';
import type { ProjectComment, ProjectListBody, ProjectListItem, ProjectListTarget, Target, TargetComment, TargetListBody, TargetListColumn } from '@shared/contract/projects';
import { DEFAULT_TARGET_LIST_STATUSES, statusRank, type TargetStatus } from '@shared/rules/projects';
import type { DelayReason } from '@shared/rules/campaigns';
import { foldForSearch } from '../../db/schema';

import { param, rows, type Executor } from '../../db/rows';

export { param, rows, type Executor };

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
  t.comment, t.is_new AS "isNew"`;
export const targetJoins = sql`targets t JOIN projects p ON p.id = t.project_id LEFT JOIN accounts ka ON ka.id = t.key_account_id`;

export interface TargetRow {
  id: number;
  projectId: number;
  projectName: string;
  clientName: string;
  position: number;
  actionCode: string | null;
  status: TargetStatus;
  type: string | null;
  advertId: number | null;
  toolId: number | null;
  promoteInSearch: boolean;
  populationCategory: string | null;
  populationSample: string | null;
  populationSize: number | null;
  goalViews: number;
  goalDays: number;
  goalShipments: number;
  startDate: number | null;
  endDate: number | null;
  checkDate: number | null;
  quotationSignedMonth: number | null;
  initialQuotationDate: number | null;
  revenue: number | null;
  releaseDateDiff: number | null;
  delayReason: DelayReason | null;
  revenueDelayImpact: number | null;
  actor: string | null;
  keyAccountId: number | null;
  keyAccountName: string | null;
  comment: string | null;
  isNew: boolean;
}

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
  };
}

/** Several targets at once, in no particular order. */
export async function targetsByIds(db: Executor, ids: number[]): Promise<Target[]> {
  const found = await rows<TargetRow>(db, sql`SELECT ${targetColumns} FROM ${targetJoins} WHERE t.id = ANY(${param(ids)}::int[])`);
  return found.map(toTarget);
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

/** One value is an equality (the planner then walks a composite index in order); several, = ANY. */
const inList = (column: SQL, values: unknown[] | undefined, cast: string) =>
  !values || !values.length
    ? undefined
    : values.length === 1
      ? sql`${column} = ${param(values[0])}::${sql.raw(cast.replace('[]', ''))}`
      : sql`${column} = ANY(${param(values)}::${sql.raw(cast)})`;
const between = (column: SQL, range: { from: number; to: number } | undefined) =>
  range ? sql`${column} BETWEEN ${range.from} AND ${range.to}` : undefined;
const withinNumbers = (column: SQL, range: { min: number; max: number } | undefined) =>
  range ? sql`${column} BETWEEN ${range.min} AND ${range.max}` : undefined;
const and = (parts: (SQL | undefined)[]) => {
  const present = parts.filter((part): part is SQL => part !== undefined);
  return present.length ? sql.join(present, sql` AND `) : sql`TRUE`;
};
/** A term for LIKE, its wildcards kept as letters. */
export const likeTerm = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

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

export interface ProjectRow {
  id: number;
  name: string;
  clientName: string;
  keyAccountId: number | null;
  keyAccountName: string | null;
  actor: string | null;
  actionCode: string | null;
  status: 'draft' | 'active' | 'archived';
  estimateId: string | null;
  createdAt: number;
  isProjectCommented: boolean;
}

export const projectColumns = sql`p.id, p.name, p.client_name AS "clientName", p.key_account_id AS "keyAccountId", ka.name AS "keyAccountName",
  p.actor, p.action_code AS "actionCode", p.status, p.estimate_id AS "estimateId", floor(extract(epoch FROM p.created_at) * 1000)::float8 AS "createdAt",
  EXISTS (SELECT 1 FROM project_comments c WHERE c.project_id = p.id) AS "isProjectCommented"`;

/** One page of projects matching the list's filters (spec §3 Project list filters). */
export async function listProjects(db: Executor, body: ProjectListBody): Promise<ProjectListItem[]> {
  const statuses = body.projectStatus ?? body.status;
  const targetConditions = projectTargetConditions(body);
  const where = and([
    statuses.length ? inList(sql`p.status`, statuses, 'text[]') : undefined,
    body.term ? sql`p.search_key LIKE ${likeTerm(foldTerm(body.term))} ESCAPE '\\'` : undefined,
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
  'id' | 'actionCode' | 'status' | 'type' | 'advertId' | 'populationCategory' | 'populationSample' | 'goalViews' | 'goalDays' | 'goalShipments' | 'startDate' | 'checkDate' | 'endDate'
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
  };
}

export async function projectRowById(db: Executor, id: number): Promise<ProjectRow | undefined> {
  const [row] = await rows<ProjectRow>(db, sql`SELECT ${projectColumns} FROM projects p LEFT JOIN accounts ka ON ka.id = p.key_account_id WHERE p.id = ${id}`);
  return row;
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
    ? sql`(t.project_id = ANY(ARRAY(SELECT id FROM projects WHERE search_key LIKE ${likeTerm(foldTerm(term))} ESCAPE '\\'
            AND ${foldForSearch(sql`name`)} LIKE ${likeTerm(foldTerm(term))} ESCAPE '\\'))
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

/** The term folded like search keys (accents off, lower case), in JavaScript. */
export function foldTerm(term: string): string {
  return term
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/œ/g, 'oe')
    .replace(/Œ/g, 'OE')
    .toLowerCase();
}

export function listTargets(db: Executor, body: TargetListBody) {
  const { where, orderBy } = targetListClauses(body);
  return rows<TargetRow & { isProjectCommented: boolean }>(
    db,
    sql`SELECT ${targetColumns}, EXISTS (SELECT 1 FROM project_comments c WHERE c.project_id = p.id) AS "isProjectCommented"
        FROM ${targetJoins} WHERE ${where} ORDER BY ${orderBy} LIMIT ${body.limit} OFFSET ${body.skip}`,
  );
}

// ---- comments -------------------------------------------------------------------------------------------------

const commentColumns = sql`c.id, c.author_id AS author, a.name AS "authorName", c.content,
  floor(extract(epoch FROM c.created_at) * 1000)::float8 AS "createdAt", floor(extract(epoch FROM c.updated_at) * 1000)::float8 AS "updatedAt"`;

export function projectCommentsOf(db: Executor, projectId: number, commentId?: number) {
  return rows<ProjectComment & { projectId: number }>(
    db,
    sql`SELECT ${commentColumns}, c.project_id AS "projectId" FROM project_comments c JOIN accounts a ON a.id = c.author_id
        WHERE ${commentId ? sql`c.id = ${commentId}` : sql`c.project_id = ${projectId}`} ORDER BY c.id`,
  );
}

export function targetCommentsOf(db: Executor, targetIds: number[], commentId?: number) {
  return rows<TargetComment>(
    db,
    sql`SELECT ${commentColumns}, c.target_id AS "targetId" FROM target_comments c JOIN accounts a ON a.id = c.author_id
        WHERE ${commentId ? sql`c.id = ${commentId}` : sql`c.target_id = ANY(${param(targetIds)}::int[])`} ORDER BY c.id`,
  );
}

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
          ${term ? sql`AND ${foldForSearch(source.column)} LIKE ${likeTerm(foldTerm(term))} ESCAPE '\\'` : sql``}) v
        ORDER BY length(value), value LIMIT ${limit}`,
  );
  return found.map((row) => row.value);
}
