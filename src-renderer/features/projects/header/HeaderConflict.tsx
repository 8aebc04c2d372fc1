import { useAtomValue, useSetAtom } from 'jotai';
import { ConflictPanel, displayValue } from '../../../ui/ConflictPanel';
import { headerConflictAtom, reloadTheirHeaderAtom, resolveHeaderFieldAtom } from './atoms';

/** How the header names its fields in a conflict (the labels of its inputs). */
const FIELD_LABELS: Record<string, string> = { name: 'Nom du projet', clientName: 'Client' };

/**
 * A header save refused because someone else changed the project meanwhile (docs/architecture.md, "Versions and
 * conflicts"): who and when, then theirs beside yours for each field both changed. The typed values stay meanwhile.
 */
export function ProjectHeaderConflict() {
  const conflict = useAtomValue(headerConflictAtom);
  const resolve = useSetAtom(resolveHeaderFieldAtom);
  const reload = useSetAtom(reloadTheirHeaderAtom);
  if (!conflict) return null;
  return (
    <ConflictPanel
      message={conflict.message}
      rows={conflict.conflicts.map(({ field, mine, theirs }) => ({
        field,
        label: FIELD_LABELS[field] ?? field,
        mine: displayValue(mine),
        theirs: displayValue(theirs),
      }))}
      onKeepMine={(field) => resolve({ field, take: 'mine' })}
      onTakeTheirs={(field) => resolve({ field, take: 'theirs' })}
      onReload={reload}
    />
  );
}
