import { atom } from 'jotai';
import type { Project } from '@shared/contract/projects';
import { PLATFORM_NOTICES, withText } from '@shared/messages';
import { PROJECT_NOTICES } from '@shared/messages/projects';
import { apiAtom } from '../../../lib/bridge';
import { raiseNoticeAtom } from '../../../lib/notices';
import { editedProjectAtom } from '../edit-atoms';

/**
 * The project's header fields (name, client) as typed: edited in place, saved on Enter (spec §2), kept as a local
 * draft while unsaved (docs/architecture.md, "Versions and conflicts"). A field absent here shows the project's.
 */
export type HeaderField = 'name' | 'clientName';

export interface ProjectHeaderValues {
  name: string;
  clientName: string;
  /** The project's version these values are based on. */
  version: number;
}

interface HeaderTyped {
  name?: string;
  clientName?: string;
  /** Set only by a resumed draft based on an older version: its save then meets the 409. */
  version?: number;
}

export const headerTypedAtom = atom<HeaderTyped>({});
headerTypedAtom.debugLabel = 'projects.header.typed';

/** The header as the server holds it (null before the project loads). */
export const headerPristineAtom = atom((get): ProjectHeaderValues | null => {
  const project = get(editedProjectAtom);
  return project ? { name: project.name, clientName: project.clientName, version: project.version } : null;
});
headerPristineAtom.debugLabel = 'projects.header.pristine';

/** The header as the form shows it. */
export const headerValuesAtom = atom((get): ProjectHeaderValues | null => {
  const pristine = get(headerPristineAtom);
  if (!pristine) return null;
  const typed = get(headerTypedAtom);
  return { name: typed.name ?? pristine.name, clientName: typed.clientName ?? pristine.clientName, version: typed.version ?? pristine.version };
});
headerValuesAtom.debugLabel = 'projects.header.values';

/** Whether a header field holds a value not saved yet (asked before leaving). */
export const headerDirtyAtom = atom((get) => {
  const typed = get(headerTypedAtom);
  return typed.name !== undefined || typed.clientName !== undefined;
});
headerDirtyAtom.debugLabel = 'projects.header.dirty';

/** Types into a field; its saved value typed back is no change. */
export const typeHeaderAtom = atom(null, (get, set, { field, value }: { field: HeaderField; value: string }) => {
  const { [field]: _previous, ...others } = get(headerTypedAtom);
  const next: HeaderTyped = get(editedProjectAtom)?.[field] === value ? others : { ...others, [field]: value };
  // Nothing typed left: no resumed version either.
  set(headerTypedAtom, next.name === undefined && next.clientName === undefined ? {} : next);
});
typeHeaderAtom.debugLabel = 'projects.header.type';

/** Escape: the field shows the saved value again. */
export const restoreHeaderAtom = atom(null, (get, set, field: HeaderField) => {
  const project = get(editedProjectAtom);
  if (project) set(typeHeaderAtom, { field, value: project[field] });
});
restoreHeaderAtom.debugLabel = 'projects.header.restore';

/**
 * A resumed local draft: the fields the user had changed from the project as it then was come back (a stale
 * draft's others stay as the server has them now), based on the version they were typed on.
 */
export const resumeHeaderDraftAtom = atom(null, (get, set, { values, base }: { values: ProjectHeaderValues; base: ProjectHeaderValues | null }) => {
  const project = get(editedProjectAtom);
  if (!project) return;
  const typed: HeaderTyped = {};
  for (const field of ['name', 'clientName'] as const) if (values[field] !== (base ?? project)[field]) typed[field] = values[field];
  if (values.version !== project.version && (typed.name !== undefined || typed.clientName !== undefined)) typed.version = values.version;
  set(headerTypedAtom, typed);
});
resumeHeaderDraftAtom.debugLabel = 'projects.header.resumeDraft';

/**
 * Saves a header field (the version the form is based on goes along); answers whether it was saved. Refused, the
 * typed value stays: a 409 brings the project as it is now, so the next Enter is based on it.
 */
export const saveProjectHeaderAtom = atom(null, async (get, set, { field, value }: { field: HeaderField; value: string }) => {
  const project = get(editedProjectAtom);
  if (!project) return false;
  const { version = project.version, ...typed } = get(headerTypedAtom);
  const result = await get(apiAtom)('projects.update', { body: { id: project.id, [field]: value, version } });
  if (!result.ok) {
    const current = result.status === 409 ? (result.conflict?.current as Project | undefined) : undefined;
    if (current) {
      set(editedProjectAtom, current);
      set(headerTypedAtom, typed);
    }
    set(raiseNoticeAtom, withText(result.status === 403 ? PLATFORM_NOTICES.forbiddenWrite : PROJECT_NOTICES.serverFailure, result.errorMsg));
    return false;
  }
  set(editedProjectAtom, result.data);
  const { [field]: _saved, ...others } = typed;
  set(headerTypedAtom, others);
  return true;
});
saveProjectHeaderAtom.debugLabel = 'projects.header.save';
