import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { actionCodeStem } from '@shared/rules/projects';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';
import { importEstimateCsv, type Estimate, type EstimateSource } from '../estimates';
import { actionCodesOfProject } from '../queries/targets';
import { insertProject, lockProject, setProjectEstimate } from '../queries/projects';
import { assertCsm, insertTargets, loadProject, nextLineCodes, projectRow, type ProjectFeatureParts } from './shared';
import { foldForSearch } from '@shared/rules/fold';

export type EstimateHandlers = Pick<Handlers, 'estimates.createProject' | 'estimates.importIntoProject' | 'estimates.importFile'>;

/** A quote line's type when its label names one ("Post sponsorisé" → post); else none, for the CSM to choose. */
export function guessType(label: string): string | null {
  const folded = foldForSearch(label);
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

/** A quote's lines as targets under these codes: amount, label (with its quantity), signature date, guessed type. */
function estimateLines(estimate: Estimate, codes: string[]) {
  return estimate.lines.map((line, index) => ({
    actionCode: codes[index],
    revenue: Math.round(line.quantity * line.unitPrice * 100) / 100,
    comment: line.quantity === 1 ? line.label : `${line.label} (× ${line.quantity})`,
    date: estimate.signedAt,
    type: guessType(line.label),
  }));
}

/** Quotes of the invoicing tool: a project made from one, one imported into a project, the quote file import. */
export function estimateHandlers({ context, year }: ProjectFeatureParts, estimates: EstimateSource): EstimateHandlers {
  const { db } = context;

  async function findEstimate(id: string): Promise<Estimate> {
    const estimate = await estimates.find(id);
    if (!estimate) throw new HttpError(404, PROJECT_MESSAGES.estimateNotFound);
    return estimate;
  }

  return {
    'estimates.createProject': async ({ params, query }) => {
      await assertCsm(db, query.keyAccount);
      const estimate = await findEstimate(params.id);
      const id = await db.transaction(async (tx) => {
        const stem = actionCodeStem(estimate.clientName, query.name, year());
        const created = await insertProject(tx, {
          name: query.name,
          clientName: estimate.clientName,
          keyAccountId: query.keyAccount,
          actor: query.actor,
          actionCode: stem,
          estimateId: estimate.id,
        });
        await insertTargets(tx, created, estimateLines(estimate, nextLineCodes(stem, [], estimate.lines.length)));
        return created.id;
      });
      return loadProject(db, id);
    },

    'estimates.importIntoProject': async ({ params }) => {
      const estimate = await findEstimate(params.estimateId);
      await db.transaction(async (tx) => {
        const project = await projectRow(tx, params.projectId);
        await lockProject(tx, project.id);
        const stem = project.actionCode ?? actionCodeStem(project.clientName, project.name, year());
        const codes = nextLineCodes(stem, await actionCodesOfProject(tx, project.id), estimate.lines.length);
        await insertTargets(tx, project, estimateLines(estimate, codes));
        await setProjectEstimate(tx, project.id, estimate.id);
      });
      return loadProject(db, params.projectId);
    },

    'estimates.importFile': async ({ body }) => importEstimateCsv(db, body.csv),
  };
}
