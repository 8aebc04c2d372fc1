import { sql, type SQL } from 'drizzle-orm';
import type { Project, Target, TargetProperties } from '@shared/contract/projects';
import { MESSAGES } from '@shared/messages';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import {
  actionCodeStem,
  applyTargetChange,
  targetChangeError,
  DEFAULT_PROJECT_STATUS,
  DEFAULT_TARGET_STATUS,
  newAdvertPath,
  normalizeGoal,
  singleTargetActionCode,
  statusRank,
} from '@shared/rules/projects';
import { isUniqueViolation } from '../../accounts/queries';
import type { ServerContext } from '../../context';
import { HttpError } from '../../errors';
import { preSerialized, type Handlers } from '../../operations';
import { sanitizeLexicalState } from './briefing';
import type { Estimate, EstimateSource } from './estimates';
import { importEstimateCsv } from './estimates';
import { targetExportCsv } from './export';
import {
  listProjects,
  listTargets,
  param,
  projectCommentsOf,
  projectRowById,
  rows,
  searchValues,
  targetById,
  targetsByIds,
  targetCommentsOf,
  targetsOfProjects,
  toTarget,
  type Executor,
  type ProjectRow,
} from './queries';

export type ProjectHandlers = Pick<
  Handlers,
  | 'projects.create'
  | 'projects.update'
  | 'projects.get'
  | 'projects.delete'
  | 'projects.list'
  | 'projects.timeline'
  | 'targets.list'
  | 'targets.export'
  | 'targets.update'
  | 'targets.updateMany'
  | 'targets.delete'
  | 'targets.create'
  | 'targets.newAdvert'
  | 'targets.duplicate'
  | 'targets.unsetRel'
  | 'comments.create'
  | 'comments.update'
  | 'comments.delete'
  | 'targetComments.create'
  | 'targetComments.update'
  | 'targetComments.delete'
  | 'briefings.create'
  | 'briefings.update'
  | 'projects.search'
  | 'estimates.createProject'
  | 'estimates.importIntoProject'
  | 'estimates.importFile'
>;

/** API field → column of the targets table, for the fields written as they come. */
const PLAIN_COLUMNS = {
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

const account = (request: { account: { id: number } | null }) => {
  if (!request.account) throw new HttpError(401, MESSAGES.authenticationRequired);
  return request.account.id;
};

async function orActionCodeConflict<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, PROJECT_MESSAGES.actionCodeTaken, {}, 'actionCode');
    throw error;
  }
}

export function projectHandlers(context: ServerContext, estimates: EstimateSource): ProjectHandlers {
  const { db, clock } = context;
  const year = () => clock.now().getUTCFullYear();

  async function projectRow(executor: Executor, id: number): Promise<ProjectRow> {
    const row = await projectRowById(executor, id);
    if (!row) throw new HttpError(404, PROJECT_MESSAGES.projectNotFound);
    return row;
  }

  async function target(executor: Executor, id: number): Promise<Target> {
    const found = await targetById(executor, id);
    if (!found) throw new HttpError(404, PROJECT_MESSAGES.targetNotFound);
    return found;
  }

  async function assertCsm(executor: Executor, id: number | null | undefined): Promise<void> {
    if (id == null) return;
    const [found] = await rows<{ id: number }>(executor, sql`SELECT id FROM accounts WHERE id = ${id} AND 'CSM' = ANY(roles)`);
    if (!found) throw new HttpError(400, PROJECT_MESSAGES.unknownCsm, {}, 'keyAccount');
  }

  async function loadProject(executor: Executor, id: number): Promise<Project> {
    const row = await projectRow(executor, id);
    const [targets, comments, [briefing]] = await Promise.all([
      targetsOfProjects(executor, [id]),
      projectCommentsOf(executor, id),
      rows<{ id: number; projectId: number; content: Record<string, unknown>; updatedAt: number }>(
        executor,
        sql`SELECT id, project_id AS "projectId", content, floor(extract(epoch FROM updated_at) * 1000)::float8 AS "updatedAt" FROM briefings WHERE project_id = ${id}`,
      ),
    ]);
    return {
      ...projectOf(row, targets),
      comments: comments.map(({ projectId: _, ...comment }) => comment),
      briefing: briefing ? { ...briefing, content: sanitizeLexicalState(briefing.content) } : null,
    };
  }

  function projectOf(row: ProjectRow, targets: Target[]) {
    const { keyAccountId, keyAccountName, ...rest } = row;
    return { ...rest, keyAccount: keyAccountId == null ? null : { id: keyAccountId, name: keyAccountName ?? '' }, targets };
  }

  /** Inserts targets at the end of a project; codes and amounts given. */
  async function insertTargets(
    executor: Executor,
    project: Pick<ProjectRow, 'id' | 'actor' | 'keyAccountId'>,
    lines: { actionCode: string; revenue?: number | null; comment?: string | null; date?: number | null; type?: string | null; goal?: { views: number; days: number; shipments: number } }[],
  ): Promise<void> {
    if (!lines.length) return;
    const [{ next }] = await rows<{ next: number }>(executor, sql`SELECT coalesce(max(position) + 1, 0)::int AS next FROM targets WHERE project_id = ${project.id}`);
    const values = lines.map(
      (line, index) =>
        sql`(${project.id}, ${next + index}, ${line.actionCode}, ${DEFAULT_TARGET_STATUS}, ${statusRank(DEFAULT_TARGET_STATUS)}, ${line.type ?? null}, ${project.actor}, ${project.keyAccountId},
             ${line.revenue ?? null}, ${line.comment ?? null}, ${line.date ?? null}, ${line.date ?? null}, ${line.goal?.views ?? 0}, ${line.goal?.days ?? 0}, ${line.goal?.shipments ?? 0})`,
    );
    await orActionCodeConflict(
      executor.execute(sql`INSERT INTO targets (project_id, position, action_code, status, status_rank, type, actor, key_account_id, revenue, comment,
        quotation_signed_month, initial_quotation_date, goal_views, goal_days, goal_shipments) VALUES ${sql.join(values, sql`, `)}`),
    );
  }

  /**
   * The advert a target is linked to must exist, and serve no other action (issue 21): the target's advert id is
   * the one record of the link, which the advert reads as its `_$target`. The advert row is locked until the
   * write commits, so that a delete or another link waits for it.
   */
  async function assertLinkableAdvert(tx: Executor, targetId: number, advertId: number | null | undefined): Promise<void> {
    if (advertId == null) return;
    const [advert] = await rows<{ id: number }>(tx, sql`SELECT id FROM adverts WHERE id = ${advertId} FOR UPDATE`);
    if (!advert) throw new HttpError(400, PROJECT_MESSAGES.advertNotFound, {}, 'advertId');
    const [other] = await rows<{ id: number; actionCode: string | null }>(
      tx,
      sql`SELECT id, action_code AS "actionCode" FROM targets WHERE advert_id = ${advertId} AND id <> ${targetId} ORDER BY id LIMIT 1`,
    );
    if (other) throw new HttpError(409, PROJECT_MESSAGES.advertLinkedElsewhere(other.actionCode ?? String(other.id)), {}, 'advertId');
  }

  /** Writes a change of a target with the date, delay and revenue rules; answers whether a delay reason is now needed. */
  async function writeTargetChange(tx: Executor, current: Target, body: TargetProperties): Promise<boolean> {
    await assertCsm(tx, body.keyAccount);
    if (body.advertId !== undefined && body.advertId !== current.advertId) await assertLinkableAdvert(tx, current.id, body.advertId);
    const broken = targetChangeError(current, body);
    if (broken) throw new HttpError(400, broken.message, {}, broken.field);
    const { goal, keyAccount, ...fields } = body;
    const { next, needsDelayReason } = applyTargetChange(current, fields as Partial<Target>);
    const sets: SQL[] = [sql`updated_at = now()`];
    for (const [field, column] of Object.entries(PLAIN_COLUMNS) as [keyof typeof PLAIN_COLUMNS, string][]) {
      if (next[field] !== current[field]) sets.push(sql`${sql.identifier(column)} = ${next[field]}`);
    }
    if (next.status !== current.status) sets.push(sql`status = ${next.status}, status_rank = ${statusRank(next.status)}`);
    if (goal) {
      const normalized = normalizeGoal(goal);
      sets.push(sql`goal_views = ${normalized.views}, goal_days = ${normalized.days}, goal_shipments = ${normalized.shipments}`);
    }
    if (keyAccount !== undefined) sets.push(sql`key_account_id = ${keyAccount}`);
    await orActionCodeConflict(tx.execute(sql`UPDATE targets SET ${sql.join(sets, sql`, `)} WHERE id = ${current.id}`));
    return needsDelayReason;
  }

  async function updateTarget(tx: Executor, current: Target, body: TargetProperties) {
    const needsDelayReason = await writeTargetChange(tx, current, body);
    return { ...(await target(tx, current.id)), needsDelayReason };
  }

  async function actionCodesOf(executor: Executor, projectId: number): Promise<string[]> {
    const found = await rows<{ code: string }>(executor, sql`SELECT action_code AS code FROM targets WHERE project_id = ${projectId} AND action_code IS NOT NULL`);
    return found.map((row) => row.code);
  }

  /** Line codes stem + n, skipping any already used in the project (a second import continues the numbering). */
  function nextLineCodes(stem: string, taken: string[], count: number): string[] {
    const used = new Set(taken);
    const codes: string[] = [];
    for (let n = 1; codes.length < count; n += 1) if (!used.has(`${stem}${n}`)) codes.push(`${stem}${n}`);
    return codes;
  }

  function estimateLines(estimate: Estimate, codes: string[]) {
    return estimate.lines.map((line, index) => ({
      actionCode: codes[index],
      revenue: Math.round(line.quantity * line.unitPrice * 100) / 100,
      comment: line.quantity === 1 ? line.label : `${line.label} (× ${line.quantity})`,
      date: estimate.signedAt,
      type: guessType(line.label),
    }));
  }

  async function findEstimate(id: string, notFoundStatus: number): Promise<Estimate> {
    const estimate = await estimates.find(id);
    if (!estimate) throw new HttpError(notFoundStatus, PROJECT_MESSAGES.estimateNotFound);
    return estimate;
  }

  return {
    'projects.create': async ({ body }) => {
      await assertCsm(db, body.keyAccount);
      const id = await db.transaction(async (tx) => {
        const stem = actionCodeStem(body.clientName, body.name, year());
        const [created] = await rows<ProjectRow>(
          tx,
          sql`INSERT INTO projects (name, client_name, key_account_id, actor, action_code, status)
              VALUES (${body.name}, ${body.clientName}, ${body.keyAccount}, ${body.actor}, ${stem}, ${DEFAULT_PROJECT_STATUS})
              RETURNING id, actor, key_account_id AS "keyAccountId"`,
        );
        await insertTargets(tx, created, nextLineCodes(stem, [], body.lines).map((actionCode) => ({ actionCode })));
        return created.id;
      });
      return loadProject(db, id);
    },

    'projects.update': async ({ body }) => {
      await projectRow(db, body.id);
      await assertCsm(db, body.keyAccount);
      const sets: SQL[] = [sql`updated_at = now()`];
      if (body.name !== undefined) sets.push(sql`name = ${body.name}`);
      if (body.clientName !== undefined) sets.push(sql`client_name = ${body.clientName}`);
      if (body.keyAccount !== undefined) sets.push(sql`key_account_id = ${body.keyAccount}`);
      if (body.actor !== undefined) sets.push(sql`actor = ${body.actor}`);
      if (body.status !== undefined) sets.push(sql`status = ${body.status}`);
      if (body.actionCode !== undefined) sets.push(sql`action_code = ${body.actionCode}`);
      await db.execute(sql`UPDATE projects SET ${sql.join(sets, sql`, `)} WHERE id = ${body.id}`);
      return loadProject(db, body.id);
    },

    'projects.get': async ({ params }) => loadProject(db, params.id),

    'projects.delete': async ({ params }) => {
      const deleted = await rows<{ id: number }>(db, sql`DELETE FROM projects WHERE id = ${params.id} RETURNING id`);
      if (!deleted.length) throw new HttpError(404, PROJECT_MESSAGES.projectNotFound);
      return { ok: true as const };
    },

    'projects.list': async ({ body, reply }) => preSerialized(reply, { items: await listProjects(db, body) }),

    'projects.timeline': async ({ body }) => {
      const projects = await rows<{ id: number; name: string }>(db, sql`SELECT id, name FROM projects WHERE id = ANY(${param(body.ids)}::int[]) ORDER BY id`);
      const targets = await targetsOfProjects(
        db,
        projects.map((p) => p.id),
      );
      const comments = groupBy(
        await targetCommentsOf(
          db,
          targets.map((t) => t.id),
        ),
        (c) => c.targetId,
      );
      return projects.map((project) => ({
        projectId: project.id,
        projectName: project.name,
        targets: targets
          .filter((t) => t.projectId === project.id)
          .map((t) => ({ id: t.id, actionCode: t.actionCode, type: t.type, status: t.status, startDate: t.startDate, endDate: t.endDate, comments: comments.get(t.id) ?? [] })),
      }));
    },

    'targets.list': async ({ body, reply }) => {
      const found = await listTargets(db, body);
      return preSerialized(reply, { items: found.map((row) => ({ ...toTarget(row), isProjectCommented: row.isProjectCommented })) });
    },

    'targets.export': async ({ body, reply }) => {
      const stream = targetExportCsv(db, body, context.dbKind);
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="actions.csv"');
      return reply.send(stream) as never;
    },

    'targets.update': async ({ params, body }) => db.transaction(async (tx) => updateTarget(tx, await target(tx, params.id), body)),

    'targets.updateMany': async ({ body }) =>
      db.transaction(async (tx) => {
        const ids = body.items.map((item) => item.id);
        const current = new Map((await targetsByIds(tx, ids)).map((found) => [found.id, found]));
        const missing = body.items.findIndex((item) => !current.has(item.id));
        if (missing !== -1) throw new HttpError(404, `Action ${ids[missing]} : ${PROJECT_MESSAGES.targetNotFound}`, {}, `items.${missing}.id`);
        const needs = new Map<number, boolean>();
        for (const [index, item] of body.items.entries()) {
          try {
            needs.set(item.id, await writeTargetChange(tx, current.get(item.id)!, item.changes));
          } catch (error) {
            // One failure names its row (the action code the grid shows) and rolls the whole batch back.
            if (error instanceof HttpError) {
              const code = current.get(item.id)!.actionCode ?? String(item.id);
              throw new HttpError(error.statusCode, `${code} : ${error.message}`, error.headers, `items.${index}.changes${error.field ? `.${error.field}` : ''}`);
            }
            throw error;
          }
        }
        const saved = new Map((await targetsByIds(tx, ids)).map((found) => [found.id, found]));
        return { items: ids.map((id) => ({ ...saved.get(id)!, needsDelayReason: needs.get(id) ?? false })) };
      }),

    'targets.delete': async ({ params }) => {
      const deleted = await rows<{ id: number }>(db, sql`DELETE FROM targets WHERE id = ${params.id} RETURNING id`);
      if (!deleted.length) throw new HttpError(404, PROJECT_MESSAGES.targetNotFound);
      return { ok: true as const };
    },

    'targets.create': async ({ params }) => {
      const id = await db.transaction(async (tx) => {
        const project = await projectRow(tx, params.projectId);
        // Two additions at once would pick the same code: take the project's row lock first.
        await tx.execute(sql`SELECT id FROM projects WHERE id = ${project.id} FOR UPDATE`);
        const code = singleTargetActionCode(project.clientName, project.name, year(), await actionCodesOf(tx, project.id));
        await insertTargets(tx, project, [{ actionCode: code }]);
        const [{ id }] = await rows<{ id: number }>(tx, sql`SELECT id FROM targets WHERE project_id = ${project.id} AND action_code = ${code}`);
        return id;
      });
      return target(db, id);
    },

    'targets.newAdvert': async ({ params }) => {
      const found = await target(db, params.targetId);
      return { targetId: found.id, path: newAdvertPath(found) };
    },

    'targets.duplicate': async ({ params, body }) => {
      const id = await db.transaction(async (tx) => {
        const original = await target(tx, params.id);
        if (original.projectId !== params.projectId) throw new HttpError(404, PROJECT_MESSAGES.targetNotFound);
        const project = await projectRow(tx, params.projectId);
        await tx.execute(sql`SELECT id FROM projects WHERE id = ${project.id} FOR UPDATE`);
        const code = singleTargetActionCode(project.clientName, project.name, year(), await actionCodesOf(tx, project.id));
        // Lines at or after the position move down one.
        await tx.execute(sql`UPDATE targets SET position = position + 1 WHERE project_id = ${project.id} AND position >= ${body.position}`);
        // The copy keeps the line's plan (type, population, goal, dates, amounts) but not its advert or tool:
        // an advert serves one action.
        const [{ id }] = await rows<{ id: number }>(
          tx,
          sql`INSERT INTO targets (project_id, position, action_code, status, status_rank, type, promote_in_search, population_category, population_sample,
                population_size, goal_views, goal_days, goal_shipments, start_date, end_date, check_date, quotation_signed_month, initial_quotation_date,
                revenue, release_date_diff, delay_reason, revenue_delay_impact, actor, key_account_id, comment, is_new)
              SELECT project_id, ${body.position}, ${code}, ${DEFAULT_TARGET_STATUS}, ${statusRank(DEFAULT_TARGET_STATUS)}, type, promote_in_search, population_category,
                population_sample, population_size, goal_views, goal_days, goal_shipments, start_date, end_date, check_date, quotation_signed_month,
                initial_quotation_date, revenue, release_date_diff, delay_reason, revenue_delay_impact, actor, key_account_id, comment, TRUE
              FROM targets WHERE id = ${original.id} RETURNING id`,
        );
        return id;
      });
      return target(db, id);
    },

    'targets.unsetRel': async ({ params }) => {
      const updated = await rows<{ id: number }>(db, sql`UPDATE targets SET advert_id = NULL, tool_id = NULL, updated_at = now() WHERE id = ${params.id} RETURNING id`);
      if (!updated.length) throw new HttpError(404, PROJECT_MESSAGES.targetNotFound);
      return target(db, params.id);
    },

    'comments.create': async (input) => {
      const author = account(input);
      await projectRow(db, input.body.projectId);
      const [{ id }] = await rows<{ id: number }>(
        db,
        sql`INSERT INTO project_comments (project_id, author_id, content) VALUES (${input.body.projectId}, ${author}, ${input.body.content}) RETURNING id`,
      );
      const [comment] = await projectCommentsOf(db, 0, id);
      const { projectId: _, ...rest } = comment;
      return rest;
    },

    'comments.update': async (input) => {
      await ownComment('project_comments', input.params.id, account(input));
      await db.execute(sql`UPDATE project_comments SET content = ${input.body.content}, updated_at = now() WHERE id = ${input.params.id}`);
      const [comment] = await projectCommentsOf(db, 0, input.params.id);
      const { projectId: _, ...rest } = comment;
      return rest;
    },

    'comments.delete': async (input) => {
      await ownComment('project_comments', input.params.id, account(input));
      await db.execute(sql`DELETE FROM project_comments WHERE id = ${input.params.id}`);
      return { ok: true as const };
    },

    'targetComments.create': async (input) => {
      const author = account(input);
      await target(db, input.body.targetId);
      const [{ id }] = await rows<{ id: number }>(
        db,
        sql`INSERT INTO target_comments (target_id, author_id, content) VALUES (${input.body.targetId}, ${author}, ${input.body.content}) RETURNING id`,
      );
      const [comment] = await targetCommentsOf(db, [], id);
      return comment;
    },

    'targetComments.update': async (input) => {
      await ownComment('target_comments', input.params.id, account(input));
      await db.execute(sql`UPDATE target_comments SET content = ${input.body.content}, updated_at = now() WHERE id = ${input.params.id}`);
      const [comment] = await targetCommentsOf(db, [], input.params.id);
      return comment;
    },

    'targetComments.delete': async (input) => {
      await ownComment('target_comments', input.params.id, account(input));
      await db.execute(sql`DELETE FROM target_comments WHERE id = ${input.params.id}`);
      return { ok: true as const };
    },

    'briefings.create': async (input) => {
      const author = account(input);
      await projectRow(db, input.body.projectId);
      const content = sanitizeLexicalState(input.body.content);
      const inserted = await rows<{ id: number }>(
        db,
        sql`INSERT INTO briefings (project_id, content, author_id) VALUES (${input.body.projectId}, ${JSON.stringify(content)}::jsonb, ${author})
            ON CONFLICT (project_id) DO NOTHING RETURNING id`,
      );
      if (!inserted.length) throw new HttpError(409, PROJECT_MESSAGES.briefingExists);
      return briefing(inserted[0].id);
    },

    'briefings.update': async (input) => {
      const author = account(input);
      const content = sanitizeLexicalState(input.body.content);
      const updated = await rows<{ id: number }>(
        db,
        sql`UPDATE briefings SET content = ${JSON.stringify(content)}::jsonb, author_id = ${author}, updated_at = now() WHERE id = ${input.params.id} RETURNING id`,
      );
      if (!updated.length) throw new HttpError(404, PROJECT_MESSAGES.briefingNotFound);
      return briefing(input.params.id);
    },

    'projects.search': async ({ params, query }) => {
      const values = await searchValues(db, params.label, query.field, query.term, query.limit);
      if (values === null) throw new HttpError(400, `${params.label} : champ ${query.field} inconnu`, {}, 'field');
      return values;
    },

    'estimates.createProject': async ({ params, query }) => {
      await assertCsm(db, query.keyAccount);
      const estimate = await findEstimate(params.id, 404);
      const id = await db.transaction(async (tx) => {
        const stem = actionCodeStem(estimate.clientName, query.name, year());
        const [created] = await rows<ProjectRow>(
          tx,
          sql`INSERT INTO projects (name, client_name, key_account_id, actor, action_code, status, estimate_id)
              VALUES (${query.name}, ${estimate.clientName}, ${query.keyAccount}, ${query.actor}, ${stem}, ${DEFAULT_PROJECT_STATUS}, ${estimate.id})
              RETURNING id, actor, key_account_id AS "keyAccountId"`,
        );
        await insertTargets(tx, created, estimateLines(estimate, nextLineCodes(stem, [], estimate.lines.length)));
        return created.id;
      });
      return loadProject(db, id);
    },

    'estimates.importIntoProject': async ({ params }) => {
      const estimate = await findEstimate(params.estimateId, 404);
      await db.transaction(async (tx) => {
        const project = await projectRow(tx, params.projectId);
        await tx.execute(sql`SELECT id FROM projects WHERE id = ${project.id} FOR UPDATE`);
        const stem = project.actionCode ?? actionCodeStem(project.clientName, project.name, year());
        const codes = nextLineCodes(stem, await actionCodesOf(tx, project.id), estimate.lines.length);
        await insertTargets(tx, project, estimateLines(estimate, codes));
        await tx.execute(sql`UPDATE projects SET estimate_id = ${estimate.id}, updated_at = now() WHERE id = ${project.id}`);
      });
      return loadProject(db, params.projectId);
    },

    'estimates.importFile': async ({ body }) => importEstimateCsv(db, body.csv),
  };

  async function ownComment(table: 'project_comments' | 'target_comments', id: number, author: number): Promise<void> {
    const [found] = await rows<{ authorId: number }>(db, sql`SELECT author_id AS "authorId" FROM ${sql.identifier(table)} WHERE id = ${id}`);
    if (!found) throw new HttpError(404, PROJECT_MESSAGES.commentNotFound);
    if (found.authorId !== author) throw new HttpError(403, PROJECT_MESSAGES.notCommentAuthor);
  }

  async function briefing(id: number) {
    const [row] = await rows<{ id: number; projectId: number; content: Record<string, unknown>; updatedAt: number }>(
      db,
      sql`SELECT id, project_id AS "projectId", content, floor(extract(epoch FROM updated_at) * 1000)::float8 AS "updatedAt" FROM briefings WHERE id = ${id}`,
    );
    return row;
  }
}

/** A quote line's type when its label names one ("Post sponsorisé" → post); else none, for the CSM to choose. */
export function guessType(label: string): string | null {
  const folded = label
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const candidates: [RegExp, string][] = [
    [/story video|story vid/, 'story video'],
    [/flash notif/, 'flash notif'],
    [/notification/, 'notification'],
    [/newsletter|nl hebdo/, 'nl hebdo'],
    [/emailing|e-mailing|emailling/, 'emailling dédié'],
    [/mise en avant/, 'mise en avant'],
    [/referencement/, 'référencement'],
    [/sondage/, 'sondage'],
    [/quiz/, 'quiz'],
    [/video/, 'video'],
    [/story/, 'story'],
    [/search|recherche/, 'search'],
    [/post/, 'post'],
  ];
  const found = candidates.find(([pattern]) => pattern.test(folded));
  return found ? found[1] : null;
}

/** Map.groupBy, which Node 20 lacks. */
function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
