import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { actionCodeStem } from '@shared/rules/projects';
import { staleVersion } from '../../../db/versioning';
import { HttpError } from '../../../errors';
import { preSerialized, type Handlers } from '../../../operations';
import { deleteProject, insertProject, listProjects, projectNames, updateProject } from '../queries/projects';
import { searchValues } from '../queries/shared';
import { targetCommentsOf } from '../queries/comments';
import { targetsOfProjects } from '../queries/targets';
import { type Executor } from '../../../db/rows';
import { assertCsm, insertTargets, loadProject, nextLineCodes, projectRow, type ProjectFeatureParts } from './shared';

export type ProjectResourceHandlers = Pick<
  Handlers,
  'projects.create' | 'projects.update' | 'projects.get' | 'projects.delete' | 'projects.list' | 'projects.timeline' | 'projects.search'
>;

/** The 409 of a write based on an older version of a project (docs/architecture.md, "Versions and conflicts"). */
async function staleProject(tx: Executor, id: number): Promise<never> {
  const row = await projectRow(tx, id);
  throw staleVersion('project', { version: row.version, updatedAt: row.updatedAt, editorName: row.editorName }, await loadProject(tx, id));
}

/** Projects: their list, page, timeline and the autocomplete of the list's filters. */
export function projectResourceHandlers({ context, year }: ProjectFeatureParts): ProjectResourceHandlers {
  const { db } = context;
  return {
    'projects.create': async ({ body }) => {
      await assertCsm(db, body.keyAccount);
      const id = await db.transaction(async (tx) => {
        const stem = actionCodeStem(body.clientName, body.name, year());
        const created = await insertProject(tx, {
          name: body.name,
          clientName: body.clientName,
          keyAccountId: body.keyAccount,
          actor: body.actor,
          actionCode: stem,
        });
        await insertTargets(
          tx,
          created,
          nextLineCodes(stem, [], body.lines).map((actionCode) => ({ actionCode })),
        );
        return created.id;
      });
      return loadProject(db, id);
    },

    'projects.update': async ({ body, account }) => {
      await assertCsm(db, body.keyAccount);
      const { id, version, ...changes } = body;
      await db.transaction(async (tx) => {
        await projectRow(tx, id);
        if (!(await updateProject(tx, id, changes, account?.id ?? null, version))) await staleProject(tx, id);
      });
      return loadProject(db, id);
    },

    'projects.get': async ({ params }) => loadProject(db, params.id),

    'projects.delete': async ({ params, query }) =>
      db.transaction(async (tx) => {
        if (query.version !== undefined && (await projectRow(tx, params.id)).version !== query.version) await staleProject(tx, params.id);
        if (!(await deleteProject(tx, params.id))) throw new HttpError(404, PROJECT_MESSAGES.projectNotFound);
        return { ok: true as const };
      }),

    'projects.list': async ({ body, reply }) => preSerialized(reply, { items: await listProjects(db, body) }),

    'projects.timeline': async ({ body }) => {
      const projects = await projectNames(db, body.ids);
      const targets = await targetsOfProjects(
        db,
        projects.map((p) => p.id),
      );
      const comments = Map.groupBy(
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
          .map((t) => ({
            id: t.id,
            actionCode: t.actionCode,
            type: t.type,
            status: t.status,
            startDate: t.startDate,
            endDate: t.endDate,
            comments: comments.get(t.id) ?? [],
          })),
      }));
    },

    'projects.search': async ({ params, query }) => {
      const values = await searchValues(db, params.label, query.field, query.term, query.limit);
      if (values === null) throw new HttpError(400, `${params.label} : champ ${query.field} inconnu`, {}, 'field');
      return values;
    },
  };
}
