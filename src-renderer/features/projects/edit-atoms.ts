import { atom, type Getter, type Setter } from 'jotai';
import type { Project } from '@shared/contract/projects/projects';
import type { CellConflict, Target, TargetField } from '@shared/contract/projects/targets';
import { PLATFORM_NOTICES, withText } from '@shared/messages';
import { notice } from '@shared/messages/notice';
import { PROJECT_MESSAGES, PROJECT_NOTICES } from '@shared/messages/projects';
import {
  emptyUndoStack,
  gridEditOf,
  pushEdit,
  takeRedo,
  takeUndo,
  type CellChanges,
  type GridEdit,
  type UndoStack,
} from '@shared/rules/project-grid';
import { advertSearchType, NEW_ADVERT_TARGET_KEY } from '@shared/rules/projects';
import { canWriteProjects } from '@shared/rules/project-list';
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
export const canEditProjectAtom = atom((get) => canWriteProjects(get(rolesAtom)));
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

export const loadProjectAtom = atom(null, async (get, set, id: number, signal?: AbortSignal) => {
  set(editedProjectErrorAtom, null);
  const result = await get(apiAtom)('projects.get', { params: { id } });
  // A read replaced by a newer one (the page moved to another project) writes nothing.
  if (signal?.aborted) return null;
  if (!result.ok) {
    set(editedProjectAtom, null);
    set(editedProjectErrorAtom, result.errorMsg);
    return null;
  }
  set(editedProjectAtom, result.data);
  return result.data;
});
loadProjectAtom.debugLabel = 'projects.edit.load';

/**
 * Deletes the project with its targets ('Projet supprimé'), based on the version loaded (docs/architecture.md,
 * "Versions and conflicts"): a project changed meanwhile stays, the 409 says who changed it and it is read again.
 * Answers whether it was deleted.
 */
export const deleteProjectAtom = atom(null, async (get, set) => {
  const project = get(editedProjectAtom);
  if (!project) return false;
  const result = await get(apiAtom)('projects.delete', { params: { id: project.id }, query: { version: project.version } });
  if (!result.ok && result.status === 409) {
    set(raiseNoticeAtom, notice(result.errorMsg, 'warning'));
    await set(loadProjectAtom, project.id);
    return false;
  }
  if (!result.ok) {
    set(raiseNoticeAtom, withText(result.status === 403 ? PLATFORM_NOTICES.forbiddenWrite : PROJECT_NOTICES.serverFailure, result.errorMsg));
    return false;
  }
  set(raiseNoticeAtom, PROJECT_NOTICES.projectDeleted);
  set(editedProjectAtom, null);
  return true;
});
deleteProjectAtom.debugLabel = 'projects.edit.delete';

// ---- the target grid ---------------------------------------------------------------------------------------------

/** A saved target with whether the delay now needs a reason ('Raison du retard'). */
export type SavedTarget = Target & { needsDelayReason: boolean; conflicts?: CellConflict[] };

/** Edits and pastes that Ctrl/Cmd+Z undoes and Shift+Ctrl/Cmd+Z redoes. */
export const gridUndoStackAtom = atom<UndoStack<GridEdit>>(emptyUndoStack<GridEdit>());
gridUndoStackAtom.debugLabel = 'projects.edit.grid.undoStack';

/** Cells changed by the last save (`{targetId}:{column}`), shown flashing for 320 ms (spec §9). */
export const flashedCellsAtom = atom<ReadonlySet<string>>(new Set<string>());
flashedCellsAtom.debugLabel = 'projects.edit.grid.flashed';

/** The grid column a written field shows in. */
const columnOfField = (field: string) => (field === 'advertId' || field === 'toolId' ? 'link' : field);

function failureNotice(result: { status: number; errorMsg: string }) {
  return withText(result.status === 403 ? PLATFORM_NOTICES.forbiddenWrite : PROJECT_NOTICES.serverFailure, result.errorMsg);
}

/** A cell the server refused: its id in the grid (`targetId:column`) and the French reason to show there. */
export interface RefusedCellAnswer {
  cellId: string;
  error: string;
}

/**
 * The cell a refusal is about, from the field the server names (`revenue` for one target, `items.2.changes.revenue`
 * for a batch), with its message less the prefixes that name the row and the field (the cell shows where it is).
 */
export function refusedCell(
  items: readonly { id: number }[],
  targets: readonly Target[],
  failure: { errorMsg: string; field?: string },
): RefusedCellAnswer | null {
  const match = /^(?:items\.(\d+)\.changes\.)?(\w+)$/.exec(failure.field ?? '');
  const item = match && items[match[1] === undefined ? 0 : Number(match[1])];
  if (!match || !item || (match[1] === undefined && items.length !== 1)) return null;
  const field = match[2];
  const code = targets.find((target) => target.id === item.id)?.actionCode ?? String(item.id);
  let error = failure.errorMsg;
  if (match[1] !== undefined && error.startsWith(`${code} : `)) error = error.slice(code.length + 3);
  if (error.startsWith(`${field} : `)) error = error.slice(field.length + 3);
  return { cellId: `${item.id}:${columnOfField(field)}`, error: error.charAt(0).toUpperCase() + error.slice(1) };
}

/** The cells (`targetId:column`) somebody else changed since the grid loaded them, theirs beside yours. */
export const conflictedCellsAtom = atom(new Map<string, CellConflict>());
conflictedCellsAtom.debugLabel = 'projects.edit.grid.conflicts';

/** « Prendre la leur »: the cells (`targetId:column`) lose their mark; the grid already shows their value. */
export const takeTheirCellsAtom = atom(null, (get, set, cellIds: readonly string[]) => {
  const marked = new Map(get(conflictedCellsAtom));
  for (const cellId of cellIds) marked.delete(cellId);
  set(conflictedCellsAtom, marked);
});
takeTheirCellsAtom.debugLabel = 'projects.edit.grid.takeTheirs';

/**
 * « Garder la mienne »: the user's values of the marked cells, one item per row, to save again; their base is then
 * the value the grid shows now (theirs), so a cell changed once more meanwhile is marked again, never overwritten.
 */
export function keptCells(conflicts: ReadonlyMap<string, CellConflict>, cellIds: readonly string[]): { id: number; changes: CellChanges }[] {
  const byRow = new Map<number, Record<string, unknown>>();
  for (const cellId of cellIds) {
    const conflict = conflicts.get(cellId);
    if (!conflict) continue;
    const id = Number(cellId.split(':')[0]);
    byRow.set(id, { ...byRow.get(id), [conflict.field]: conflict.yours });
  }
  return [...byRow].map(([id, changes]) => ({ id, changes: changes as CellChanges }));
}

/**
 * What each changed cell held when shown (docs/architecture.md, "Versions and conflicts", per cell): the server
 * writes a cell still holding it and answers the others as conflicts, so a paste never erases a colleague's cell.
 */
function cellBase(target: Target | undefined, changes: CellChanges): Partial<Record<TargetField, unknown>> | undefined {
  if (!target) return undefined;
  const base: Partial<Record<TargetField, unknown>> = {};
  for (const field of Object.keys(changes) as TargetField[])
    base[field] = field === 'keyAccount' ? (target.keyAccount?.id ?? null) : (target[field as keyof Target] ?? null);
  return base;
}

/**
 * Saves cell changes: one target through PUT /target/{id}/properties, several (a paste, an undo) in one
 * PUT /targets/properties. The saved targets replace the shown ones, their changed cells flash, and unless it is
 * an undo or redo the edit is kept for undo. A refusal about a cell the user typed or pasted into (`cells`) goes to
 * `onRefused`, to be shown at that cell with the text kept; any other is a notice. Answers the saved targets, or
 * null when nothing was saved.
 */
export const saveGridChangesAtom = atom(
  null,
  async (
    get,
    set,
    input: {
      items: { id: number; changes: CellChanges }[];
      history?: 'record' | 'undo' | 'redo';
      /** The cells (`targetId:column`) whose text the user typed or pasted. */
      cells?: ReadonlySet<string>;
      onRefused?: (refused: RefusedCellAnswer) => void;
    },
  ): Promise<SavedTarget[] | null> => {
    if (!input.items.length) return [];
    const api = get(apiAtom);
    const before = get(editedTargetsAtom);
    const items = input.items.map((item) => ({
      ...item,
      base: cellBase(
        before.find((target) => target.id === item.id),
        item.changes,
      ),
    }));
    const refuse = (result: { status: number; errorMsg: string; field?: string }) => {
      const cell = refusedCell(input.items, before, result);
      if (cell && input.onRefused && input.cells?.has(cell.cellId)) input.onRefused(cell);
      else set(raiseNoticeAtom, failureNotice(result));
      return null;
    };
    let saved: SavedTarget[];
    if (input.items.length === 1 && (input.history ?? 'record') === 'record') {
      const [item] = input.items;
      const result = await api('targets.update', { params: { id: item.id }, body: { ...item.changes, base: items[0].base } });
      if (!result.ok) return refuse(result);
      saved = [result.data];
    } else {
      const result = await api('targets.updateMany', { body: { items } });
      if (!result.ok) return refuse(result);
      saved = result.data.items;
    }
    set(replaceTargetsAtom, saved);
    showConflicts(get, set, input.items, saved);
    const edit = gridEditOf(before, saved);
    if (edit && (input.history ?? 'record') === 'record') set(gridUndoStackAtom, pushEdit(get(gridUndoStackAtom), edit));
    if (edit) {
      const cells = new Set(edit.redo.flatMap((item) => Object.keys(item.changes).map((field) => `${item.id}:${columnOfField(field)}`)));
      set(flashedCellsAtom, cells);
      setTimeout(() => {
        if (get(flashedCellsAtom) === cells) set(flashedCellsAtom, new Set<string>());
      }, CELL_FLASH_MS);
    }
    return saved;
  },
);
saveGridChangesAtom.debugLabel = 'projects.edit.grid.save';

/** Marks the cells a save left as somebody else made them, and says so once (never overwritten silently). */
function showConflicts(get: Getter, set: Setter, items: { id: number; changes: CellChanges }[], saved: SavedTarget[]) {
  const marked = new Map(get(conflictedCellsAtom));
  for (const item of items) for (const field of Object.keys(item.changes)) marked.delete(`${item.id}:${columnOfField(field)}`);
  const found = saved.flatMap((target) =>
    (target.conflicts ?? []).map((conflict) => [`${target.id}:${columnOfField(conflict.field)}`, conflict] as const),
  );
  for (const [cellId, conflict] of found) marked.set(cellId, conflict);
  set(conflictedCellsAtom, marked);
  if (found.length) set(raiseNoticeAtom, notice(PROJECT_MESSAGES.cellsChangedMeanwhile(found[0][1].updatedBy, found.length), 'warning'));
}

export const CELL_FLASH_MS = 320;

/** Undoes the last edit or paste (one batch call); answers whether there was one. */
export const undoGridAtom = atom(null, async (get, set) => {
  const taken = takeUndo(get(gridUndoStackAtom));
  if (!taken) return false;
  if (await set(saveGridChangesAtom, { items: taken.edit.undo, history: 'undo' })) set(gridUndoStackAtom, taken.stack);
  return true;
});
undoGridAtom.debugLabel = 'projects.edit.grid.undo';

export const redoGridAtom = atom(null, async (get, set) => {
  const taken = takeRedo(get(gridUndoStackAtom));
  if (!taken) return false;
  if (await set(saveGridChangesAtom, { items: taken.edit.redo, history: 'redo' })) set(gridUndoStackAtom, taken.stack);
  return true;
});
redoGridAtom.debugLabel = 'projects.edit.grid.redo';

/** Adds a target at the end of the project (POST /project/{id}/newtarget). */
export const addTargetAtom = atom(null, async (get, set) => {
  const project = get(editedProjectAtom);
  if (!project) return;
  const result = await get(apiAtom)('targets.create', { params: { projectId: project.id } });
  if (!result.ok) return set(raiseNoticeAtom, failureNotice(result));
  set(editedTargetsAtom, [...get(editedTargetsAtom), result.data]);
});
addTargetAtom.debugLabel = 'projects.edit.grid.add';

/** Copies a target just below itself. */
export const duplicateTargetAtom = atom(null, async (get, set, input: { id: number; position: number }) => {
  const project = get(editedProjectAtom);
  if (!project) return;
  const result = await get(apiAtom)('targets.duplicate', { params: { projectId: project.id, id: input.id }, body: { position: input.position } });
  if (!result.ok) return set(raiseNoticeAtom, failureNotice(result));
  // Positions after the copy moved: read them again.
  await set(loadProjectAtom, project.id);
});
duplicateTargetAtom.debugLabel = 'projects.edit.grid.duplicate';

/**
 * Deletes a target ('Action supprimée') based on the version its row was loaded with: a row changed meanwhile
 * stays, the 409 says who changed it and the grid reads the project again.
 */
export const deleteTargetAtom = atom(null, async (get, set, id: number) => {
  const version = get(editedTargetsAtom).find((target) => target.id === id)?.version;
  const result = await get(apiAtom)('targets.delete', { params: { id }, query: version ? { version } : {} });
  if (!result.ok && result.status === 409) {
    set(raiseNoticeAtom, notice(result.errorMsg, 'warning'));
    const project = get(editedProjectAtom);
    return void (project && (await set(loadProjectAtom, project.id)));
  }
  if (!result.ok) return set(raiseNoticeAtom, failureNotice(result));
  set(
    editedTargetsAtom,
    get(editedTargetsAtom).filter((target) => target.id !== id),
  );
  set(gridUndoStackAtom, emptyUndoStack<GridEdit>());
  set(raiseNoticeAtom, PROJECT_NOTICES.actionDeleted);
});
deleteTargetAtom.debugLabel = 'projects.edit.grid.delete';

/** Detaches the advert or tool of a target ('Elément détaché de l'action avec succès'). */
export const detachTargetAtom = atom(null, async (get, set, id: number) => {
  const result = await get(apiAtom)('targets.unsetRel', { params: { id } });
  if (!result.ok) return set(raiseNoticeAtom, withText(PROJECT_NOTICES.serverFailure, result.errorMsg));
  set(replaceTargetsAtom, [result.data]);
  set(raiseNoticeAtom, PROJECT_NOTICES.advertDetached);
});
detachTargetAtom.debugLabel = 'projects.edit.grid.detach';

/** Where to create an advert for a target: its id is kept in local storage first (spec §2), then the path is answered. */
export const newAdvertPathAtom = atom(null, async (get, set, id: number): Promise<string | null> => {
  const result = await get(apiAtom)('targets.newAdvert', { params: { targetId: id } });
  if (!result.ok) {
    set(raiseNoticeAtom, failureNotice(result));
    return null;
  }
  localStorage.setItem(NEW_ADVERT_TARGET_KEY, String(result.data.targetId));
  return result.data.path;
});
newAdvertPathAtom.debugLabel = 'projects.edit.grid.newAdvertPath';

/** Adverts for 'Associer une publicité', of the type the target's type searches (spec §4 mapping). */
export const searchAdvertsAtom = atom(null, async (get, _set, input: { term: string; type: string }) => {
  const result = await get(apiAtom)('adverts.search', { query: { term: input.term, limit: 25 } });
  if (!result.ok) return [];
  const wanted = advertSearchType(input.type);
  return result.data.filter((advert) => advert.type === wanted);
});
searchAdvertsAtom.debugLabel = 'projects.edit.grid.searchAdverts';
