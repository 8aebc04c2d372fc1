import { atom } from 'jotai';
import type { ProjectComment, TargetComment } from '@shared/contract/projects/comments';
import type { Project } from '@shared/contract/projects/projects';
import { PLATFORM_NOTICES, withText } from '@shared/messages';
import { PROJECT_NOTICES } from '@shared/messages/projects';
import { briefingStartState, commentTextToSave } from '@shared/rules/project-comments';
import type { IpcFailure } from '@shared/ipc';
import { apiAtom } from '../../../lib/bridge';
import { raiseNoticeAtom } from '../../../lib/notices';
import { sessionAtom } from '../../../lib/session';

/**
 * The comments / briefing sidebar of the project page (audiences-projects-tools.md §2, §4 "Briefing and
 * comments"). The project itself belongs to the page (props); these atoms hold what the sidebar adds: its tab,
 * the target comments, the briefing's edit state, and the calls.
 */

export type SidePanelTab = 'comments' | 'briefing';

export const sidePanelTabAtom = atom<SidePanelTab>('comments');
sidePanelTabAtom.debugLabel = 'projects.sidebar.tab';

/** The signed-in account: the author of the comments written here. */
export const currentUserIdAtom = atom((get) => get(sessionAtom)?.userId ?? null);
currentUserIdAtom.debugLabel = 'projects.sidebar.currentUserId';

/** Comments of each target of the project, by target id (loaded with the project's timeline call). */
export const targetCommentsAtom = atom<Record<number, TargetComment[]>>({});
targetCommentsAtom.debugLabel = 'projects.sidebar.targetComments';

/** The briefing is being edited (read view otherwise: click to edit, spec §4). */
export const briefingEditingAtom = atom(false);
briefingEditingAtom.debugLabel = 'projects.sidebar.briefingEditing';

/** Bumped to start the editor again from the saved briefing (cancel restores it). */
export const briefingEditorGenerationAtom = atom(0);
briefingEditorGenerationAtom.debugLabel = 'projects.sidebar.briefingEditorGeneration';

/** The editor's current state (Lexical JSON), what Save sends. */
export const briefingDraftAtom = atom<Record<string, unknown> | null>(null);
briefingDraftAtom.debugLabel = 'projects.sidebar.briefingDraft';

export const briefingSavingAtom = atom(false);
briefingSavingAtom.debugLabel = 'projects.sidebar.briefingSaving';

/** A failed call: the server's text as an error toast (403 is 'User not allowed', 3 s). */
const failureNotice = (failure: IpcFailure) =>
  failure.status === 403 ? PLATFORM_NOTICES.forbiddenWrite : withText(PROJECT_NOTICES.serverFailure, failure.errorMsg);

export const loadTargetCommentsAtom = atom(null, async (get, set, projectId: number) => {
  const result = await get(apiAtom)('projects.timeline', { body: { ids: [projectId] } });
  if (!result.ok) {
    set(raiseNoticeAtom, failureNotice(result));
    return;
  }
  const byTarget: Record<number, TargetComment[]> = {};
  for (const project of result.data) for (const target of project.targets) byTarget[target.id] = target.comments;
  set(targetCommentsAtom, byTarget);
});
loadTargetCommentsAtom.debugLabel = 'projects.sidebar.loadTargetComments';

/** Adds a project comment; answers the project with it, or null on failure. */
export const addProjectCommentAtom = atom(null, async (get, set, input: { project: Project; content: string }): Promise<Project | null> => {
  const content = input.content.trim();
  if (!content) return null;
  const result = await get(apiAtom)('comments.create', { body: { projectId: input.project.id, content } });
  if (!result.ok) {
    set(raiseNoticeAtom, failureNotice(result));
    return null;
  }
  return { ...input.project, comments: [...input.project.comments, result.data], isProjectCommented: true };
});
addProjectCommentAtom.debugLabel = 'projects.sidebar.addProjectComment';

/** Edits one's own project comment; unchanged text is not sent (answers the project as it was). */
export const editProjectCommentAtom = atom(
  null,
  async (get, set, input: { project: Project; comment: ProjectComment; content: string }): Promise<Project | null> => {
    const content = commentTextToSave(input.comment.content, input.content);
    if (content === null) return input.project;
    const result = await get(apiAtom)('comments.update', { params: { id: input.comment.id }, body: { content } });
    if (!result.ok) {
      set(raiseNoticeAtom, failureNotice(result));
      return null;
    }
    return { ...input.project, comments: input.project.comments.map((comment) => (comment.id === result.data.id ? result.data : comment)) };
  },
);
editProjectCommentAtom.debugLabel = 'projects.sidebar.editProjectComment';

/** Deletes one's own project comment (a failure shows the error 3 s, spec §8). */
export const deleteProjectCommentAtom = atom(
  null,
  async (get, set, input: { project: Project; comment: ProjectComment }): Promise<Project | null> => {
    const result = await get(apiAtom)('comments.delete', { params: { id: input.comment.id } });
    if (!result.ok) {
      set(raiseNoticeAtom, withText(PROJECT_NOTICES.deleteCommentFailed, result.errorMsg));
      return null;
    }
    const comments = input.project.comments.filter((comment) => comment.id !== input.comment.id);
    return { ...input.project, comments, isProjectCommented: comments.length > 0 };
  },
);
deleteProjectCommentAtom.debugLabel = 'projects.sidebar.deleteProjectComment';

const replaceTargetComment = (all: Record<number, TargetComment[]>, targetId: number, update: (list: TargetComment[]) => TargetComment[]) => ({
  ...all,
  [targetId]: update(all[targetId] ?? []),
});

export const addTargetCommentAtom = atom(null, async (get, set, input: { targetId: number; content: string }): Promise<boolean> => {
  const content = input.content.trim();
  if (!content) return false;
  const result = await get(apiAtom)('targetComments.create', { body: { targetId: input.targetId, content } });
  if (!result.ok) {
    set(raiseNoticeAtom, failureNotice(result));
    return false;
  }
  set(
    targetCommentsAtom,
    replaceTargetComment(get(targetCommentsAtom), input.targetId, (list) => [...list, result.data]),
  );
  return true;
});
addTargetCommentAtom.debugLabel = 'projects.sidebar.addTargetComment';

export const editTargetCommentAtom = atom(null, async (get, set, input: { comment: TargetComment; content: string }): Promise<boolean> => {
  const content = commentTextToSave(input.comment.content, input.content);
  if (content === null) return true;
  const result = await get(apiAtom)('targetComments.update', { params: { id: input.comment.id }, body: { content } });
  if (!result.ok) {
    set(raiseNoticeAtom, failureNotice(result));
    return false;
  }
  set(
    targetCommentsAtom,
    replaceTargetComment(get(targetCommentsAtom), input.comment.targetId, (list) =>
      list.map((comment) => (comment.id === result.data.id ? result.data : comment)),
    ),
  );
  return true;
});
editTargetCommentAtom.debugLabel = 'projects.sidebar.editTargetComment';

export const deleteTargetCommentAtom = atom(null, async (get, set, comment: TargetComment): Promise<boolean> => {
  const result = await get(apiAtom)('targetComments.delete', { params: { id: comment.id } });
  if (!result.ok) {
    set(raiseNoticeAtom, withText(PROJECT_NOTICES.deleteCommentFailed, result.errorMsg));
    return false;
  }
  set(
    targetCommentsAtom,
    replaceTargetComment(get(targetCommentsAtom), comment.targetId, (list) => list.filter((c) => c.id !== comment.id)),
  );
  return true;
});
deleteTargetCommentAtom.debugLabel = 'projects.sidebar.deleteTargetComment';

/** Cancel (and closing the sidebar): back to the saved briefing, or the template, in the read view. */
export const cancelBriefingAtom = atom(null, (get, set) => {
  set(briefingEditingAtom, false);
  set(briefingDraftAtom, null);
  set(briefingEditorGenerationAtom, get(briefingEditorGenerationAtom) + 1);
});
cancelBriefingAtom.debugLabel = 'projects.sidebar.cancelBriefing';

/** Saves the draft: creates the briefing when the project has none, updates it otherwise (spec §4). */
export const saveBriefingAtom = atom(null, async (get, set, project: Project): Promise<Project | null> => {
  if (get(briefingSavingAtom)) return null;
  // Nothing typed: a saved briefing stays as it is; a project without one gets the template it was shown.
  const draft = get(briefingDraftAtom);
  if (!draft && project.briefing) {
    set(cancelBriefingAtom);
    return project;
  }
  const content = draft ?? briefingStartState(project.briefing);
  set(briefingSavingAtom, true);
  const api = get(apiAtom);
  const result = project.briefing
    ? await api('briefings.update', { params: { id: project.briefing.id }, body: { content } })
    : await api('briefings.create', { body: { projectId: project.id, content } });
  set(briefingSavingAtom, false);
  if (!result.ok) {
    set(raiseNoticeAtom, failureNotice(result));
    return null;
  }
  set(briefingEditingAtom, false);
  set(briefingDraftAtom, null);
  set(briefingEditorGenerationAtom, get(briefingEditorGenerationAtom) + 1);
  return { ...project, briefing: result.data };
});
saveBriefingAtom.debugLabel = 'projects.sidebar.saveBriefing';
