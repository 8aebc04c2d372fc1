import { atom } from 'jotai';
import type { ApiOutput } from '../../../bridge/api';
import { PLATFORM_NOTICES, withText } from '@shared/messages';
import { PROJECT_NOTICES } from '@shared/messages/projects';
import { ownLatestComment, timelineCommentSave } from '@shared/rules/project-comments';
import { apiAtom } from '../../../lib/bridge';
import { raiseNoticeAtom } from '../../../lib/notices';
import { sessionAtom } from '../../../lib/session';

/** The timeline overlay of a project (audiences-projects-tools.md §2 "Timeline overlay"), from POST /projects/timeline. */

export type TimelineTarget = ApiOutput<'projects.timeline'>[number]['targets'][number];

/** The actions of the project shown, with their dates and comments; null until loaded. */
export const timelineTargetsAtom = atom<TimelineTarget[] | null>(null);
timelineTargetsAtom.debugLabel = 'projects.timeline.targets';

export const timelineLoadingAtom = atom(false);
timelineLoadingAtom.debugLabel = 'projects.timeline.loading';

/** Targets whose comment is being saved (the row shows it). */
export const timelineSavingAtom = atom<number[]>([]);
timelineSavingAtom.debugLabel = 'projects.timeline.saving';

/** Reads a project's timeline; a read the overlay's query replaced (closed, another project) writes nothing. */
export const loadTimelineAtom = atom(null, async (get, set, projectId: number, signal?: AbortSignal) => {
  set(timelineLoadingAtom, true);
  set(timelineTargetsAtom, null);
  const result = await get(apiAtom)('projects.timeline', { body: { ids: [projectId] } });
  set(timelineLoadingAtom, false);
  if (signal?.aborted) return;
  if (!result.ok) {
    set(raiseNoticeAtom, withText(PROJECT_NOTICES.serverFailure, result.errorMsg));
    set(timelineTargetsAtom, []);
    return;
  }
  set(timelineTargetsAtom, result.data.find((project) => project.projectId === projectId)?.targets ?? []);
});
loadTimelineAtom.debugLabel = 'projects.timeline.load';

/**
 * Saves of one target run one after the other: a second debounced edit must see the comment the first one
 * created, or it would create another.
 */
const saveQueues = new Map<number, Promise<unknown>>();

/**
 * A debounced edit of the user's comment on a target: the first edit creates it, later ones update it, an
 * empty or unchanged text is not sent (rules in project-comments.ts).
 */
export const saveTimelineCommentAtom = atom(null, (get, set, input: { targetId: number; draft: string }): Promise<void> => {
  const run = async () => {
    const target = get(timelineTargetsAtom)?.find((t) => t.id === input.targetId);
    if (!target) return;
    const userId = get(sessionAtom)?.userId ?? null;
    const save = timelineCommentSave(ownLatestComment(target.comments, userId), input.draft);
    if (save.kind === 'none') return;
    set(timelineSavingAtom, [...get(timelineSavingAtom), input.targetId]);
    const api = get(apiAtom);
    const result =
      save.kind === 'create'
        ? await api('targetComments.create', { body: { targetId: input.targetId, content: save.content } })
        : await api('targetComments.update', { params: { id: save.id }, body: { content: save.content } });
    set(
      timelineSavingAtom,
      get(timelineSavingAtom).filter((id) => id !== input.targetId),
    );
    if (!result.ok) {
      set(raiseNoticeAtom, result.status === 403 ? PLATFORM_NOTICES.forbiddenWrite : withText(PROJECT_NOTICES.serverFailure, result.errorMsg));
      return;
    }
    const saved = result.data;
    set(
      timelineTargetsAtom,
      (get(timelineTargetsAtom) ?? []).map((t) =>
        t.id !== input.targetId
          ? t
          : {
              ...t,
              comments: t.comments.some((c) => c.id === saved.id) ? t.comments.map((c) => (c.id === saved.id ? saved : c)) : [...t.comments, saved],
            },
      ),
    );
  };
  const next = (saveQueues.get(input.targetId) ?? Promise.resolve()).then(run, run);
  saveQueues.set(input.targetId, next);
  return next;
});
saveTimelineCommentAtom.debugLabel = 'projects.timeline.saveComment';
