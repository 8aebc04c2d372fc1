import { atom, type Getter, type Setter } from 'jotai';
import type { Audience } from '@shared/contract/audiences/audiences';
import type { IpcResult } from '@shared/ipc';
import { mergeChanges, type FieldConflict } from '@shared/rules/conflicts';
import { sameData } from '../../../lib/unsaved-changes';
import { draftAtom, fromAudience, pristineAtom, setSavedDraftAtom, type AudienceDraft } from './draft';

// A save of the audience editor refused because someone else changed the audience (409), and a resumed local draft.

/** A save refused because someone else changed the audience: who and when, and the fields both changed. */
export interface AudienceConflict {
  message: string;
  conflicts: FieldConflict[];
  theirs: AudienceDraft;
}

export const audienceConflictAtom = atom<AudienceConflict | null>(null);
audienceConflictAtom.debugLabel = 'audiences.editor.conflict';

/** Fields of the draft that are the server's bookkeeping: never a conflict. */
const AUDIENCE_SERVER_FIELDS = new Set(['id', 'adverts', 'version']);

/**
 * A save refused because someone else changed the audience (409; docs/architecture.md): their audience becomes
 * what is saved, the draft keeps the user's values with theirs where only they changed a field, and every field
 * the user changed (both changed, or only the user: the area saved at once that met the 409) is listed beside
 * theirs for the user's choice, kept until then. Answers false for another failure.
 */
export function adoptAudienceConflict(get: Getter, set: Setter, result: IpcResult<unknown>): boolean {
  if (result.ok || result.status !== 409 || !result.conflict?.current) return false;
  const theirs = fromAudience(result.conflict.current as Audience);
  const mine = get(draftAtom);
  const base = get(pristineAtom);
  if (!mine || !base) return false;
  const { merged, conflicts } = mergeChanges(
    base as unknown as Record<string, unknown>,
    mine as unknown as Record<string, unknown>,
    theirs as unknown as Record<string, unknown>,
    AUDIENCE_SERVER_FIELDS,
  );
  set(pristineAtom, theirs);
  set(draftAtom, { ...(merged as unknown as AudienceDraft), version: theirs.version, adverts: theirs.adverts });
  set(audienceConflictAtom, { message: result.errorMsg, conflicts: [...conflicts, ...onlyMine(base, mine, theirs, conflicts)], theirs });
  return true;
}

/** The fields only the user changed (theirs still the base's): listed too, so no change of theirs goes unseen. */
function onlyMine(base: AudienceDraft, mine: AudienceDraft, theirs: AudienceDraft, conflicts: FieldConflict[]): FieldConflict[] {
  const listed = new Set(conflicts.map((conflict) => conflict.field));
  return (Object.keys(mine) as (keyof AudienceDraft)[])
    .filter((field) => !AUDIENCE_SERVER_FIELDS.has(field) && !listed.has(field))
    .filter((field) => !sameData(mine[field], base[field]) && !sameData(mine[field], theirs[field]))
    .map((field) => ({ field, mine: mine[field], theirs: theirs[field] }));
}

/**
 * A resumed local draft (lib/local-drafts.ts): the typed fields come back with the version they were based on; the
 * id and the adverts stay the server's. A stale one also brings the audience as it was then, so its save's 409
 * merges against that: only what the user changed meets what others changed since.
 */
export const resumeAudienceDraftAtom = atom(null, (get, set, { values, base }: { values: AudienceDraft; base: AudienceDraft | null }) => {
  const current = get(draftAtom);
  const pristine = get(pristineAtom);
  if (!current || !pristine) return;
  set(draftAtom, { ...values, id: current.id, adverts: current.adverts });
  if (base && base.version !== pristine.version) set(pristineAtom, { ...base, id: pristine.id, adverts: pristine.adverts });
});
resumeAudienceDraftAtom.debugLabel = 'audiences.editor.resumeDraft';

/** The user's choice for one field both changed. */
export const resolveAudienceFieldAtom = atom(null, (get, set, choice: { field: string; take: 'mine' | 'theirs' }) => {
  const conflict = get(audienceConflictAtom);
  const draft = get(draftAtom);
  if (!conflict || !draft) return;
  const decided = conflict.conflicts.find((item) => item.field === choice.field);
  if (decided && choice.take === 'theirs') set(draftAtom, { ...draft, [choice.field]: decided.theirs });
  set(audienceConflictAtom, { ...conflict, conflicts: conflict.conflicts.filter((item) => item.field !== choice.field) });
});
resolveAudienceFieldAtom.debugLabel = 'audiences.editor.resolveField';

/** Their audience whole: the user chose to drop their unsaved values. */
export const reloadTheirAudienceAtom = atom(null, (get, set) => {
  const conflict = get(audienceConflictAtom);
  if (!conflict) return;
  set(setSavedDraftAtom, conflict.theirs);
  set(audienceConflictAtom, null);
});
reloadTheirAudienceAtom.debugLabel = 'audiences.editor.reloadTheirs';
