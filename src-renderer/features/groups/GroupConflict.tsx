import { useAtomValue, useSetAtom } from 'jotai';
import { ConflictPanel, displayValue } from '../../ui/ConflictPanel';
import { LocalDraftOffer } from '../../ui/DraftOffer';
import {
  groupAtom,
  groupConflictAtom,
  groupDraftValuesAtom,
  groupPristineValuesAtom,
  reloadTheirGroupAtom,
  resolveGroupFieldAtom,
  resumeGroupDraftAtom,
  type GroupDraftValues,
  type GroupMember,
} from './atoms/editor';

const FIELD_LABELS: Record<string, string> = { name: 'Nom', members: 'Éléments' };

const groupValue = (field: string, value: unknown) =>
  field === 'members' ? displayValue((value as GroupMember[]).map((member) => member.node.name)) : displayValue(value);

/** A save refused because someone else changed the group meanwhile: theirs beside yours (docs/architecture.md). */
export function GroupConflict() {
  const conflict = useAtomValue(groupConflictAtom);
  const resolve = useSetAtom(resolveGroupFieldAtom);
  const reload = useSetAtom(reloadTheirGroupAtom);
  if (!conflict) return null;
  return (
    <ConflictPanel
      message={conflict.message}
      rows={conflict.conflicts.map(({ field, mine, theirs }) => ({
        field,
        label: FIELD_LABELS[field] ?? field,
        mine: groupValue(field, mine),
        theirs: groupValue(field, theirs),
      }))}
      onKeepMine={(field) => resolve({ field, take: 'mine' })}
      onTakeTheirs={(field) => resolve({ field, take: 'theirs' })}
      onReload={reload}
    />
  );
}

/**
 * The group's local draft (docs/architecture.md, "Versions and conflicts"): its name and members, kept while they
 * differ from the saved group and offered back when it reopens; a stale one meets the usual conflict on save.
 */
export function GroupLocalDraft() {
  const group = useAtomValue(groupAtom);
  const values = useAtomValue(groupDraftValuesAtom);
  const pristine = useAtomValue(groupPristineValuesAtom);
  const resume = useSetAtom(resumeGroupDraftAtom);
  return (
    <LocalDraftOffer<GroupDraftValues>
      recordKey={group ? `group:${group.id}` : null}
      values={values}
      pristine={pristine}
      version={group?.version ?? null}
      onResume={(values, base) => resume({ values, base })}
    />
  );
}
