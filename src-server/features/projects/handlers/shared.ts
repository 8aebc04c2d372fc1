import type { Project } from '@shared/contract/projects/projects';
import type { Target } from '@shared/contract/projects/targets';
import { MESSAGES } from '@shared/messages';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { isUniqueViolation } from '../../../accounts/queries';
import type { ServerContext } from '../../../context';
import { HttpError } from '../../../errors';
import { sanitizeRichText, type RichTextProfile } from '../../../rich-text';
import { briefingRow } from '../queries/briefings';
import { insertTargetLines, targetById, targetsOfProjects, type NewTargetLine } from '../queries/targets';
import { isCsmAccount, projectRowById } from '../queries/projects';
import type { ProjectRow } from '../queries/rows';
import { projectCommentsOf } from '../queries/comments';
import { type Executor } from '../../../db/rows';

/**
 * What the briefing editor makes (a Lexical state): paragraphs, headings, quotes, lists, links, text with bold /
 * italic / underline formats and line breaks; no inline style.
 */
export const BRIEFING_TEXT: RichTextProfile = {
  blocks: ['heading', 'quote', 'list', 'listitem'],
  maxText: 100_000,
  styles: false,
  paragraphRoot: false,
};

/** What the handlers of every resource of the projects feature share: loading, checks and adding targets. */

/** What every resource's handlers of the projects feature are built from. */
export interface ProjectFeatureParts {
  context: ServerContext;
  /** The current year (action codes carry it), from the server's clock. */
  year(): number;
}

/** The signed-in account's id (comments and briefings record their author). */
export const accountId = (request: { account: { id: number } | null }) => {
  if (!request.account) throw new HttpError(401, MESSAGES.authenticationRequired);
  return request.account.id;
};

/** A write that breaks the unique action code per project answers 409 on the action code field. */
export async function orActionCodeConflict<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, PROJECT_MESSAGES.actionCodeTaken, {}, 'actionCode');
    throw error;
  }
}

export async function projectRow(executor: Executor, id: number): Promise<ProjectRow> {
  const row = await projectRowById(executor, id);
  if (!row) throw new HttpError(404, PROJECT_MESSAGES.projectNotFound);
  return row;
}

export async function loadTarget(executor: Executor, id: number): Promise<Target> {
  const found = await targetById(executor, id);
  if (!found) throw new HttpError(404, PROJECT_MESSAGES.targetNotFound);
  return found;
}

/** The key account of a project or target must be a CSM (none is fine). */
export async function assertCsm(executor: Executor, id: number | null | undefined): Promise<void> {
  if (id == null) return;
  if (!(await isCsmAccount(executor, id))) throw new HttpError(400, PROJECT_MESSAGES.unknownCsm, {}, 'keyAccount');
}

/** A project as the API answers it: its targets, comments and briefing. */
export async function loadProject(executor: Executor, id: number): Promise<Project> {
  const row = await projectRow(executor, id);
  const [targets, comments, briefing] = await Promise.all([
    targetsOfProjects(executor, [id]),
    projectCommentsOf(executor, id),
    briefingRow(executor, { projectId: id }),
  ]);
  const { keyAccountId, keyAccountName, updatedAt: _at, editorName: _by, ...rest } = row;
  return {
    ...rest,
    keyAccount: keyAccountId == null ? null : { id: keyAccountId, name: keyAccountName ?? '' },
    targets,
    comments: comments.map(({ projectId: _, ...comment }) => comment),
    briefing: briefing ? { ...briefing, content: sanitizeRichText(briefing.content, BRIEFING_TEXT) } : null,
  };
}

/** Inserts targets at the end of a project; codes and amounts given. */
export async function insertTargets(
  executor: Executor,
  project: Pick<ProjectRow, 'id' | 'actor' | 'keyAccountId'>,
  lines: NewTargetLine[],
): Promise<void> {
  await orActionCodeConflict(insertTargetLines(executor, project, lines));
}

/** Line codes stem + n, skipping any already used in the project (a second import continues the numbering). */
export function nextLineCodes(stem: string, taken: string[], count: number): string[] {
  const used = new Set(taken);
  const codes: string[] = [];
  for (let n = 1; codes.length < count; n += 1) if (!used.has(`${stem}${n}`)) codes.push(`${stem}${n}`);
  return codes;
}
