import type { Getter, PrimitiveAtom, Setter } from 'jotai';
import type { IpcResult } from '@shared/ipc';
import { mergeChanges, type FieldConflict } from '@shared/rules/conflicts';
import type { ContentItem } from './types';

/** The editor atoms a refused save touches (editor-atoms.ts). */
interface ConflictState {
  savedAtom: PrimitiveAtom<ContentItem | null>;
  draftAtom: PrimitiveAtom<ContentItem | null>;
  pristineAtom: PrimitiveAtom<ContentItem | null>;
  conflictAtom: PrimitiveAtom<EditorConflict | null>;
}

export interface EditorConflict {
  message: string;
  conflicts: FieldConflict[];
  theirs: ContentItem;
}

/** Fields the server keeps for itself: never a conflict, always theirs after a refused save. */
const SERVER_FIELDS = new Set(['id', 'model', 'createdAt', 'updatedAt', 'publishedAt', 'unpublishedAt', 'version', 'targetId', '_$target']);

/**
 * A save refused with 409 (docs/architecture.md, "Versions and conflicts"): the item as they left it becomes the
 * saved version the next save is based on; the form keeps every value the user typed, takes theirs where only they
 * changed a field, and lists the fields both changed for the user to decide. Answers false for another failure.
 */
export function adoptConflict(state: ConflictState, get: Getter, set: Setter, result: IpcResult<unknown>): boolean {
  if (result.ok || result.status !== 409 || !result.conflict?.current) return false;
  const theirs = result.conflict.current as ContentItem;
  const base = get(state.savedAtom) ?? {};
  const mine = get(state.draftAtom) ?? {};
  const { merged, conflicts } = mergeChanges(base, mine, theirs, SERVER_FIELDS);
  const serverFields = Object.fromEntries(
    [...SERVER_FIELDS].filter((field) => field in theirs).map((field) => [field, theirs[field as keyof ContentItem]]),
  );
  const kept = { ...theirs, _$criteria: get(state.savedAtom)?._$criteria };
  set(state.savedAtom, kept);
  set(state.pristineAtom, kept);
  set(state.draftAtom, { ...merged, ...serverFields });
  set(state.conflictAtom, { message: result.errorMsg, conflicts, theirs: kept });
  return true;
}
