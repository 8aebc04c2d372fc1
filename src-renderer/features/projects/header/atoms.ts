import { atom, type Getter, type Setter } from 'jotai';
import type { Project } from '@shared/contract/projects/projects';
import type { IpcResult } from '@shared/ipc';
import { mergeChanges, type FieldConflict } from '@shared/rules/conflicts';
import { PLATFORM_NOTICES, withText } from '@shared/messages';
import { PROJECT_NOTICES } from '@shared/messages/projects';
import { apiAtom } from '../../../lib/bridge';
import { raiseNoticeAtom } from '../../../lib/notices';
import { queueSaveAtom, type AppStore, type RetryOutcome } from '../../../lib/offline';
import { editedProjectAtom } from '../edit-atoms';

/**
 * The project's header fields (name, client) as typed: edited in place, saved on Enter (spec §2), kept as a local
 * draft while unsaved (docs/architecture.md, "Versions and conflicts"). A field absent here shows the project's.
 */
export type HeaderField = 'name' | 'clientName';
const HEADER_FIELDS = ['name', 'clientName'] as const;

export interface ProjectHeaderValues {
  name: string;
  clientName: string;
  /** The project's version these values are based on. */
  version: number;
}

type HeaderFieldValues = Pick<ProjectHeaderValues, HeaderField>;

interface HeaderTyped {
  name?: string;
  clientName?: string;
  /** Set only by a resumed draft based on an older version: its save then meets the 409. */
  version?: number;
  /** The header as it was when that draft was typed: its 409 is merged against it, so their change since shows. */
  base?: HeaderFieldValues;
}

const headerFieldsOf = (from: HeaderFieldValues): HeaderFieldValues => ({ name: from.name, clientName: from.clientName });

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
  if (values.version !== project.version && (typed.name !== undefined || typed.clientName !== undefined)) {
    typed.version = values.version;
    if (base) typed.base = headerFieldsOf(base);
  }
  set(headerTypedAtom, typed);
});
resumeHeaderDraftAtom.debugLabel = 'projects.header.resumeDraft';

/** A header save refused because someone else changed the project meanwhile: the fields both changed. */
export interface HeaderConflict {
  message: string;
  conflicts: FieldConflict[];
}

export const headerConflictAtom = atom<HeaderConflict | null>(null);
headerConflictAtom.debugLabel = 'projects.header.conflict';

/**
 * A 409 of a header save (docs/architecture.md, "Versions and conflicts"): their project becomes the shown one, the
 * fields the user typed stay typed, a field only they changed shows theirs, and a field both changed to different
 * values waits for the user's choice in the conflict view. Answers false for another failure.
 */
function adoptHeaderConflict(get: Getter, set: Setter, shown: Project, result: IpcResult<unknown>): boolean {
  if (result.ok || result.status !== 409 || !result.conflict?.current) return false;
  const theirs = result.conflict.current as Project;
  const { version: _resumed, base: draftBase, ...typed } = get(headerTypedAtom);
  // A resumed stale draft was typed on an older header than the one shown: a field they changed since is theirs.
  const base = draftBase ?? headerFieldsOf(shown);
  const mine = { ...base, ...typed };
  const { merged, conflicts } = mergeChanges(base, mine, headerFieldsOf(theirs));
  const next: HeaderTyped = {};
  for (const field of HEADER_FIELDS) if (merged[field] !== theirs[field]) next[field] = merged[field];
  set(editedProjectAtom, theirs);
  set(headerTypedAtom, next);
  set(headerConflictAtom, { message: result.errorMsg, conflicts });
  return true;
}

/** The user's choice for a field both changed: theirs is the project's value, so taking it leaves nothing typed. */
export const resolveHeaderFieldAtom = atom(null, (get, set, choice: { field: string; take: 'mine' | 'theirs' }) => {
  const conflict = get(headerConflictAtom);
  if (!conflict) return;
  const decided = conflict.conflicts.find((item) => item.field === choice.field);
  if (decided && choice.take === 'theirs') set(typeHeaderAtom, { field: decided.field as HeaderField, value: String(decided.theirs) });
  set(headerConflictAtom, { ...conflict, conflicts: conflict.conflicts.filter((item) => item.field !== choice.field) });
});
resolveHeaderFieldAtom.debugLabel = 'projects.header.resolveField';

/** Their project whole: the user chose to drop what they typed in the header. */
export const reloadTheirHeaderAtom = atom(null, (_get, set) => {
  set(headerTypedAtom, {});
  set(headerConflictAtom, null);
});
reloadTheirHeaderAtom.debugLabel = 'projects.header.reloadTheirs';

/** A retry of lib/offline.ts, told how it went (and never queued again). */
type RetryOptions = { onOutcome: (outcome: RetryOutcome) => void };

/**
 * No answer from the server (lib/offline.ts): the banner says so instead of an error, the typed value stays (and
 * its local draft), and the field is saved again when the server answers, with what is typed in it then.
 */
function waitForServer(set: Setter, id: number, field: HeaderField) {
  const run = async (store: AppStore): Promise<RetryOutcome> => {
    const value = store.get(headerTypedAtom)[field]?.trim();
    // Another project is open, or the field was given back its saved value: nothing of this save is left to send.
    if (store.get(editedProjectAtom)?.id !== id || !value) return 'saved';
    let outcome: RetryOutcome = 'refused';
    await store.set(saveProjectHeaderAtom, { field, value, retry: { onOutcome: (answer) => (outcome = answer) } });
    return outcome;
  };
  set(queueSaveAtom, { key: `project:${id}:${field}`, run });
}

/**
 * Saves a header field (the version the form is based on goes along); answers whether it was saved. Refused, the
 * typed value stays: a 409 merges it with the project as it is now (header/conflict.ts), so the next Enter is
 * based on it; no answer queues it (lib/offline.ts).
 */
export const saveProjectHeaderAtom = atom(
  null,
  async (get, set, { field, value, retry }: { field: HeaderField; value: string; retry?: RetryOptions }) => {
    const project = get(editedProjectAtom);
    if (!project) return false;
    const { version = project.version } = get(headerTypedAtom);
    const result = await get(apiAtom)('projects.update', { body: { id: project.id, [field]: value, version } });
    if (!result.ok) {
      retry?.onOutcome(result.status === 0 ? 'unreachable' : 'refused');
      if (result.status === 0) {
        if (!retry) waitForServer(set, project.id, field);
        return false;
      }
      if (adoptHeaderConflict(get, set, project, result)) return false;
      set(raiseNoticeAtom, withText(result.status === 403 ? PLATFORM_NOTICES.forbiddenWrite : PROJECT_NOTICES.serverFailure, result.errorMsg));
      return false;
    }
    retry?.onOutcome('saved');
    set(headerConflictAtom, null);
    set(editedProjectAtom, result.data);
    // What was typed while the save was under way stays typed; the saved value (and a resumed version) no longer.
    const { [field]: typedNow, version: _resumed, base: _draftBase, ...others } = get(headerTypedAtom);
    set(headerTypedAtom, typedNow !== undefined && typedNow.trim() !== value ? { ...others, [field]: typedNow } : others);
    return true;
  },
);
saveProjectHeaderAtom.debugLabel = 'projects.header.save';
