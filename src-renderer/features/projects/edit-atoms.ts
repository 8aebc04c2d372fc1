import { atom } from 'jotai';
import type { Project, Target } from '@shared/contract/projects';
import { PLATFORM_NOTICES, withText } from '@shared/messages';
import { PROJECT_NOTICES } from '@shared/messages/projects';
import { hasAnyRole } from '@shared/roles';
import { apiAtom } from '../../lib/bridge';
import { raiseNoticeAtom } from '../../lib/notices';
import { rolesAtom } from '../../lib/session';

/** The project open in the editor (with its targets, comments and briefing); null before it loads. */
export const editedProjectAtom = atom<Project | null>(null);
editedProjectAtom.debugLabel = 'projects.edit.project';

/** Why the project could not be loaded (not found, forbidden); null otherwise. */
export const editedProjectErrorAtom = atom<string | null>(null);
editedProjectErrorAtom.debugLabel = 'projects.edit.loadError';

/**
 * Whether the current user may change the project and its targets: the contract's project writers, CSM, CSM_LEAD
 * or ADMIN (SALES without ADMIN may not, spec §6; the server refuses it anyway).
 */
export const canEditProjectAtom = atom((get) => hasAnyRole(get(rolesAtom), ['CSM', 'CSM_LEAD']));
canEditProjectAtom.debugLabel = 'projects.edit.canEdit';

/** The targets of the open project, in their order. */
export const editedTargetsAtom = atom(
  (get) => get(editedProjectAtom)?.targets ?? [],
  (get, set, targets: Target[]) => {
    const project = get(editedProjectAtom);
    if (project) set(editedProjectAtom, { ...project, targets });
  },
);
editedTargetsAtom.debugLabel = 'projects.edit.targets';

/** Replaces targets by id with their saved version (the server's answer after an edit). */
export const replaceTargetsAtom = atom(null, (get, set, saved: Target[]) => {
  const byId = new Map(saved.map((target) => [target.id, target]));
  set(
    editedTargetsAtom,
    get(editedTargetsAtom).map((target) => byId.get(target.id) ?? target),
  );
});
replaceTargetsAtom.debugLabel = 'projects.edit.replaceTargets';

export const loadProjectAtom = atom(null, async (get, set, id: number) => {
  set(editedProjectErrorAtom, null);
  const result = await get(apiAtom)('projects.get', { params: { id } });
  if (!result.ok) {
    set(editedProjectAtom, null);
    set(editedProjectErrorAtom, result.errorMsg);
    return null;
  }
  set(editedProjectAtom, result.data);
  return result.data;
});
loadProjectAtom.debugLabel = 'projects.edit.load';

/** Saves the inline header fields (name, client); answers whether it was saved. */
export const saveProjectHeaderAtom = atom(null, async (get, set, changes: { name?: string; clientName?: string }) => {
  const project = get(editedProjectAtom);
  if (!project) return false;
  const result = await get(apiAtom)('projects.update', { body: { id: project.id, ...changes } });
  if (!result.ok) {
    set(raiseNoticeAtom, withText(result.status === 403 ? PLATFORM_NOTICES.forbiddenWrite : PROJECT_NOTICES.serverFailure, result.errorMsg));
    return false;
  }
  set(editedProjectAtom, result.data);
  return true;
});
saveProjectHeaderAtom.debugLabel = 'projects.edit.saveHeader';

/** Deletes the project with its targets ('Projet supprimé'); answers whether it was deleted. */
export const deleteProjectAtom = atom(null, async (get, set) => {
  const project = get(editedProjectAtom);
  if (!project) return false;
  const result = await get(apiAtom)('projects.delete', { params: { id: project.id } });
  if (!result.ok) {
    set(raiseNoticeAtom, withText(result.status === 403 ? PLATFORM_NOTICES.forbiddenWrite : PROJECT_NOTICES.serverFailure, result.errorMsg));
    return false;
  }
  set(raiseNoticeAtom, PROJECT_NOTICES.projectDeleted);
  set(editedProjectAtom, null);
  return true;
});
deleteProjectAtom.debugLabel = 'projects.edit.delete';
