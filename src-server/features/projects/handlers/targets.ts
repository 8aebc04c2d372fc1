import type { CellConflict, Target, TargetField, TargetProperties } from '@shared/contract/projects/targets';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import {
  advertTypeMismatch,
  applyTargetChange,
  newAdvertPath,
  normalizeGoal,
  singleTargetActionCode,
  targetChangeError,
} from '@shared/rules/projects';
import { HttpError } from '../../../errors';
import { preSerialized, type Handlers } from '../../../operations';
import { targetExportCsv } from '../export';
import {
  actionCodesOfProject,
  deleteTarget,
  insertTargetCopy,
  listTargets,
  lockAdvert,
  lockedTargets,
  otherTargetOfAdvert,
  targetIdByActionCode,
  toTarget,
  unlinkTarget,
  updateTargetFields,
} from '../queries/targets';
import { lockProject } from '../queries/projects';
import { type Executor } from '../../../db/rows';
import { mergeCells, publicTarget, type VersionedTarget } from './cell-conflicts';
import { assertCsm, insertTargets, loadTarget, orActionCodeConflict, projectRow, type ProjectFeatureParts } from './shared';

export type TargetHandlers = Pick<
  Handlers,
  | 'targets.list'
  | 'targets.export'
  | 'targets.update'
  | 'targets.updateMany'
  | 'targets.delete'
  | 'targets.create'
  | 'targets.newAdvert'
  | 'targets.duplicate'
  | 'targets.unsetRel'
>;

/**
 * The advert a target is linked to must exist, and serve no other action (docs/projects.md, Targets): the target's advert id is
 * the one record of the link, which the advert reads as its `_$target`. The advert row is locked until the
 * write commits, so that a delete or another link waits for it.
 */
async function assertLinkableAdvert(tx: Executor, targetId: number, advertId: number | null | undefined, targetType: string | null): Promise<void> {
  if (advertId == null) return;
  const advert = await lockAdvert(tx, advertId);
  if (!advert) throw new HttpError(400, PROJECT_MESSAGES.advertNotFound, {}, 'advertId');
  const wanted = advertTypeMismatch(targetType, advert.type);
  if (wanted) throw new HttpError(400, PROJECT_MESSAGES.advertWrongType(targetType!, wanted, advert.type), {}, 'advertId');
  const other = await otherTargetOfAdvert(tx, advertId, targetId);
  if (other) throw new HttpError(409, PROJECT_MESSAGES.advertLinkedElsewhere(other.actionCode ?? String(other.id)), {}, 'advertId');
}

/** What a cell edit names besides its changes: the row version or each cell's value when loaded (cell-conflicts.ts). */
interface BasedOn {
  version?: number;
  base?: Partial<Record<TargetField, unknown>>;
}

/** Writes a change of a target with the date, delay and revenue rules; answers whether a delay reason is now needed. */
async function writeTargetChange(tx: Executor, current: Target, body: TargetProperties, by: number | null): Promise<boolean> {
  await assertCsm(tx, body.keyAccount);
  if (body.advertId !== undefined && body.advertId !== current.advertId)
    await assertLinkableAdvert(tx, current.id, body.advertId, body.type !== undefined ? body.type : current.type);
  const broken = targetChangeError(current, body);
  if (broken) throw new HttpError(400, broken.message, {}, broken.field);
  const { goal, keyAccount, ...fields } = body;
  const { next, needsDelayReason } = applyTargetChange(current, fields as Partial<Target>);
  await orActionCodeConflict(updateTargetFields(tx, current, next, { goal: goal && normalizeGoal(goal), keyAccount }, by));
  return needsDelayReason;
}

/**
 * Writes the changes of several targets (the grid's paste and undo), all or none of the cells nobody changed
 * meanwhile; the others are answered as each row's `conflicts`, left as the other person made them.
 */
async function writeTargetChanges(
  tx: Executor,
  items: ({ id: number; changes: TargetProperties } & BasedOn)[],
  by: number | null,
  { nameRows = true } = {},
) {
  const ids = items.map((item) => item.id);
  const current = new Map<number, VersionedTarget>((await lockedTargets(tx, ids)).map((found) => [found.id, found]));
  const missing = items.findIndex((item) => !current.has(item.id));
  if (missing !== -1) throw new HttpError(404, `Action ${ids[missing]} : ${PROJECT_MESSAGES.targetNotFound}`, {}, `items.${missing}.id`);
  const needs = new Map<number, boolean>();
  const conflicts = new Map<number, CellConflict[]>();
  for (const [index, item] of items.entries()) {
    const row = current.get(item.id)!;
    // A stale row (version named without base) answers its own 409, with the row as it is now.
    const merged = mergeCells(row, item.changes, item);
    conflicts.set(item.id, merged.conflicts);
    try {
      if (Object.keys(merged.changes).length) needs.set(item.id, await writeTargetChange(tx, publicTarget(row), merged.changes, by));
    } catch (error) {
      // One failure names its row (the action code the grid shows) and rolls the whole batch back.
      if (error instanceof HttpError && nameRows) {
        const code = current.get(item.id)!.actionCode ?? String(item.id);
        throw new HttpError(
          error.statusCode,
          `${code} : ${error.message}`,
          error.headers,
          `items.${index}.changes${error.field ? `.${error.field}` : ''}`,
        );
      }
      throw error;
    }
  }
  const saved = new Map((await lockedTargets(tx, ids)).map((found) => [found.id, publicTarget(found)]));
  return { items: ids.map((id) => ({ ...saved.get(id)!, needsDelayReason: needs.get(id) ?? false, conflicts: conflicts.get(id) ?? [] })) };
}

/** Targets (a project's actions): the grid's list, export, edits, additions and copies. */
export function targetHandlers({ context, year }: ProjectFeatureParts): TargetHandlers {
  const { db } = context;

  /** A new action code for one more line of the project (its row locked: two additions would pick the same). */
  async function newActionCode(tx: Executor, projectId: number) {
    const project = await projectRow(tx, projectId);
    await lockProject(tx, project.id);
    return { project, code: singleTargetActionCode(project.clientName, project.name, year(), await actionCodesOfProject(tx, project.id)) };
  }

  return {
    'targets.list': async ({ body, reply }) => {
      const found = await listTargets(db, body);
      return preSerialized(reply, { items: found.map((row) => ({ ...toTarget(row), isProjectCommented: row.isProjectCommented })) });
    },

    'targets.export': async ({ body, reply }) => {
      const stream = targetExportCsv(db, body, context.dbKind);
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="actions.csv"');
      return reply.send(stream) as never;
    },

    'targets.update': async ({ params, body, account }) => {
      const { version, base, ...changes } = body;
      const [saved] = await db.transaction(async (tx) => {
        await loadTarget(tx, params.id);
        return (await writeTargetChanges(tx, [{ id: params.id, changes, version, base }], account?.id ?? null, { nameRows: false })).items;
      });
      return saved;
    },

    'targets.updateMany': async ({ body, account }) => db.transaction(async (tx) => writeTargetChanges(tx, body.items, account?.id ?? null)),

    'targets.delete': async ({ params, query }) =>
      db.transaction(async (tx) => {
        const [row] = await lockedTargets(tx, [params.id]);
        if (!row) throw new HttpError(404, PROJECT_MESSAGES.targetNotFound);
        mergeCells(row, {}, { version: query.version });
        await deleteTarget(tx, params.id);
        return { ok: true as const };
      }),

    'targets.create': async ({ params }) => {
      const id = await db.transaction(async (tx) => {
        const { project, code } = await newActionCode(tx, params.projectId);
        await insertTargets(tx, project, [{ actionCode: code }]);
        return targetIdByActionCode(tx, project.id, code);
      });
      return loadTarget(db, id);
    },

    'targets.newAdvert': async ({ params }) => {
      const found = await loadTarget(db, params.targetId);
      return { targetId: found.id, path: newAdvertPath(found) };
    },

    'targets.duplicate': async ({ params, body }) => {
      const id = await db.transaction(async (tx) => {
        const original = await loadTarget(tx, params.id);
        if (original.projectId !== params.projectId) throw new HttpError(404, PROJECT_MESSAGES.targetNotFound);
        const { code } = await newActionCode(tx, params.projectId);
        return insertTargetCopy(tx, original, body.position, code);
      });
      return loadTarget(db, id);
    },

    'targets.unsetRel': async ({ params }) => {
      if (!(await unlinkTarget(db, params.id))) throw new HttpError(404, PROJECT_MESSAGES.targetNotFound);
      return loadTarget(db, params.id);
    },
  };
}
