import { useAtomValue, useSetAtom } from 'jotai';
import { contentFieldLabel } from '@shared/messages/content-fields';
import { ConflictPanel, displayValue } from '../../ui/ConflictPanel';
import type { EditorAtoms } from './editor-atoms';

/**
 * The editor's answer to a save refused because someone else changed the item (docs/architecture.md, "Versions
 * and conflicts"): who and when, each field both changed with yours beside theirs, chosen one by one; the form
 * keeps the user's values meanwhile, and the next save is based on their version.
 */
export function EditorConflict({ atoms }: { atoms: EditorAtoms }) {
  const conflict = useAtomValue(atoms.conflictAtom);
  const resolve = useSetAtom(atoms.resolveFieldAtom);
  const reload = useSetAtom(atoms.reloadTheirsAtom);
  if (!conflict) return null;
  const rows = conflict.conflicts.map(({ field, mine, theirs }) => ({
    field,
    label: contentFieldLabel(field),
    mine: displayValue(mine),
    theirs: displayValue(theirs),
  }));
  return (
    <ConflictPanel
      message={conflict.message}
      rows={rows}
      onKeepMine={(field) => resolve({ field, take: 'mine' })}
      onTakeTheirs={(field) => resolve({ field, take: 'theirs' })}
      onReload={reload}
    />
  );
}
