import { useAtomValue, useSetAtom } from 'jotai';
import { ConflictPanel, displayValue } from '../../ui/ConflictPanel';
import { labConflictAtom } from './atoms';
import { reloadTheirLabProjectAtom, resolveLabFieldAtom } from './save';

/**
 * A Save (or a tag's delete) refused because someone else changed the project or a tag meanwhile
 * (docs/laboratory.md): who and when, then theirs beside yours for each tag field both changed. The tags typed stay.
 */
export function LabConflict() {
  const conflict = useAtomValue(labConflictAtom);
  const resolve = useSetAtom(resolveLabFieldAtom);
  const reload = useSetAtom(reloadTheirLabProjectAtom);
  if (!conflict) return null;
  return (
    <ConflictPanel
      message={conflict.message}
      rows={conflict.conflicts.map(({ field, label, mine, theirs }) => ({
        field,
        label,
        mine: displayValue(mine),
        theirs: displayValue(theirs),
      }))}
      onKeepMine={(field) => resolve({ field, take: 'mine' })}
      onTakeTheirs={(field) => resolve({ field, take: 'theirs' })}
      onReload={reload}
    />
  );
}
