/**
 * Two people's changes to one record (docs/architecture.md, "Versions and conflicts"), merged field by field the
 * way careful collaborative editors do: a field only they changed takes their value, a field only you changed
 * keeps yours, and a field you both changed to different values is a conflict for you to decide. Nothing is
 * overwritten silently either way.
 */

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export interface FieldConflict {
  field: string;
  mine: unknown;
  theirs: unknown;
}

export interface MergedChanges<T> {
  /** Your values, with theirs where only they changed a field. */
  merged: T;
  /** The fields you both changed, to different values. */
  conflicts: FieldConflict[];
}

/**
 * Merges `mine` (the editor's values, based on `base`) with `theirs` (the record now). Fields in `ignore` (the
 * server's bookkeeping: ids, dates, versions) and fields absent from `theirs` keep your value.
 */
export function mergeChanges<T extends Record<string, unknown>>(
  base: Record<string, unknown>,
  mine: T,
  theirs: Record<string, unknown>,
  ignore: ReadonlySet<string> = new Set(),
): MergedChanges<T> {
  const merged: Record<string, unknown> = { ...mine };
  const conflicts: FieldConflict[] = [];
  for (const field of Object.keys(theirs)) {
    if (ignore.has(field)) continue;
    const theyChanged = !same(theirs[field], base[field]);
    if (!theyChanged) continue;
    const youChanged = !same(mine[field], base[field]);
    if (!youChanged) merged[field] = theirs[field];
    else if (!same(mine[field], theirs[field])) conflicts.push({ field, mine: mine[field], theirs: theirs[field] });
  }
  return { merged: merged as T, conflicts };
}
