import type { CellConflict, Target, TargetField, TargetProperties } from '@shared/contract/projects/targets';
import { normalizeGoal } from '@shared/rules/projects';
import { staleVersion } from '../../../db/versioning';

/**
 * Conflicts of the target grid, cell by cell (docs/architecture.md, "Versions and conflicts"): two people edit
 * the same row; what one changed must not erase what the other changed in another cell, and a cell both changed
 * is kept as the first left it and reported, never overwritten silently.
 */

/** What the server knows of a row's newest change (its target plus who and when). */
export interface VersionedTarget extends Target {
  updatedAt: number;
  editorName: string | null;
}

/** A field's stored value in the shape a change gives it: a key account by its id, a goal as its three figures. */
function storedValue(target: Target, field: TargetField): unknown {
  if (field === 'keyAccount') return target.keyAccount?.id ?? null;
  if (field === 'goal') return normalizeGoal(target.goal);
  return target[field as keyof Target] ?? null;
}

function comparable(field: TargetField, value: unknown): string {
  if (field === 'goal' && value && typeof value === 'object') return JSON.stringify(normalizeGoal(value as Target['goal']));
  return JSON.stringify(value ?? null);
}

const same = (field: TargetField, a: unknown, b: unknown) => comparable(field, a) === comparable(field, b);

/**
 * The changes that may be written and the cells changed meanwhile. With `base`, a field whose stored value is no
 * longer its base is left out (unless it already holds the value asked); without it, `version` checks the whole
 * row and throws the 409 of a stale row.
 */
export function mergeCells(
  current: VersionedTarget,
  changes: TargetProperties,
  basedOn: { version?: number; base?: Partial<Record<TargetField, unknown>> },
): { changes: TargetProperties; conflicts: CellConflict[] } {
  if (!basedOn.base) {
    if (basedOn.version !== undefined && basedOn.version !== current.version)
      throw staleVersion('target', { version: current.version, updatedAt: current.updatedAt, editorName: current.editorName }, publicTarget(current));
    return { changes, conflicts: [] };
  }
  const kept: Record<string, unknown> = {};
  const conflicts: CellConflict[] = [];
  for (const [field, yours] of Object.entries(changes) as [TargetField, unknown][]) {
    const theirs = storedValue(current, field);
    const changedMeanwhile = field in basedOn.base && !same(field, basedOn.base[field], theirs);
    if (!changedMeanwhile) kept[field] = yours;
    else if (!same(field, theirs, yours))
      conflicts.push({ field, theirs, yours, updatedBy: current.editorName, updatedAt: new Date(current.updatedAt).toISOString() });
  }
  return { changes: kept as TargetProperties, conflicts };
}

/** A target as the API answers it (without who changed it, which the conflicts carry). */
export function publicTarget({ updatedAt: _at, editorName: _by, ...target }: VersionedTarget): Target {
  return target;
}
