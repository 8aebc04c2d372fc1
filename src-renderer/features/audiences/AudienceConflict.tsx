import { useAtomValue, useSetAtom } from 'jotai';
import type { EditorRelationship } from '@shared/rules/audience-editor';
import { ConflictPanel, displayValue } from '../../ui/ConflictPanel';
import { LocalDraftOffer } from '../../ui/DraftOffer';
import { audienceConflictAtom, reloadTheirAudienceAtom, resolveAudienceFieldAtom, resumeAudienceDraftAtom } from './atoms/conflict';
import { draftAtom, pristineAtom, type AudienceDraft } from './atoms/draft';
import { TYPE_LABELS, labelName } from './labels';

/** How the audience editor names its fields in a conflict (the labels of its toolbar). */
const FIELD_LABELS: Record<string, string> = { name: 'Nom', type: 'Type', area: 'Area', isInCatalog: 'Catalogue', relationships: 'Critères' };

function audienceValue(field: string, value: unknown): string {
  if (field === 'relationships')
    return displayValue((value as EditorRelationship[]).map((relationship) => `${labelName(relationship.node.label)} ${relationship.node.name}`));
  if (field === 'type' && typeof value === 'string') return TYPE_LABELS[value as keyof typeof TYPE_LABELS] ?? value;
  return displayValue(value);
}

/** A save refused because someone else changed the audience meanwhile: theirs beside yours, field by field. */
export function AudienceConflict() {
  const conflict = useAtomValue(audienceConflictAtom);
  const resolve = useSetAtom(resolveAudienceFieldAtom);
  const reload = useSetAtom(reloadTheirAudienceAtom);
  if (!conflict) return null;
  return (
    <ConflictPanel
      message={conflict.message}
      rows={conflict.conflicts.map(({ field, mine, theirs }) => ({
        field,
        label: FIELD_LABELS[field] ?? field,
        mine: audienceValue(field, mine),
        theirs: audienceValue(field, theirs),
      }))}
      onKeepMine={(field) => resolve({ field, take: 'mine' })}
      onTakeTheirs={(field) => resolve({ field, take: 'theirs' })}
      onReload={reload}
    />
  );
}

/**
 * The audience's local draft (docs/architecture.md, "Versions and conflicts"): kept while the form differs from the
 * saved audience, offered back when it reopens; resumed, a stale one meets the usual conflict on save.
 */
export function AudienceLocalDraft() {
  const draft = useAtomValue(draftAtom);
  const pristine = useAtomValue(pristineAtom);
  const resume = useSetAtom(resumeAudienceDraftAtom);
  return (
    <LocalDraftOffer<AudienceDraft>
      recordKey={draft ? `audience:${draft.id ?? 'new'}` : null}
      values={draft}
      pristine={pristine}
      version={pristine?.version ?? null}
      onResume={(values, base) => resume({ values, base })}
    />
  );
}
