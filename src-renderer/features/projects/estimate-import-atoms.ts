import { atom } from 'jotai';
import type { Project } from '@shared/contract/projects/projects';
import { PLATFORM_NOTICES, withText } from '@shared/messages';
import { PROJECT_NOTICES } from '@shared/messages/projects';
import { apiAtom } from '../../lib/bridge';
import { raiseNoticeAtom } from '../../lib/notices';

/** The quote import of an existing project is running (its button waits). */
export const estimateImportBusyAtom = atom(false);
estimateImportBusyAtom.debugLabel = 'projects.estimateImport.busy';

/**
 * Adds a quote's lines to a project (PUT /project/{projectId}/estimate/{estimateId}): 'estimate imported with
 * success!' (success 3 s), 'No estimate found with this ID' (error 2 s, spec §8), 'User not allowed' for SALES,
 * otherwise the server's errorMsg (error 3 s). Answers the project with its new targets, or null.
 */
export const importEstimateIntoProjectAtom = atom(
  null,
  async (get, set, input: { projectId: number; estimateId: string }): Promise<Project | null> => {
    if (get(estimateImportBusyAtom)) return null;
    set(estimateImportBusyAtom, true);
    const result = await get(apiAtom)('estimates.importIntoProject', { params: { projectId: input.projectId, estimateId: input.estimateId } });
    set(estimateImportBusyAtom, false);
    if (result.ok) {
      set(raiseNoticeAtom, PROJECT_NOTICES.estimateImported);
      return result.data;
    }
    if (result.status === 404 && result.errorMsg === PROJECT_NOTICES.estimateNotFoundOnImport.text)
      set(raiseNoticeAtom, PROJECT_NOTICES.estimateNotFoundOnImport);
    else if (result.status === 403) set(raiseNoticeAtom, PLATFORM_NOTICES.forbiddenWrite);
    else set(raiseNoticeAtom, withText(PROJECT_NOTICES.serverFailure, result.errorMsg));
    return null;
  },
);
importEstimateIntoProjectAtom.debugLabel = 'projects.estimateImport.run';
