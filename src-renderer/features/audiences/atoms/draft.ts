import { atom } from 'jotai';
import type { Audience } from '@shared/contract/audiences/audiences';
import type { RelationshipInput } from '@shared/contract/audiences/shared';
import { AUDIENCE_NOTICES, withText } from '@shared/messages';
import { audienceFieldErrors, type EditorRelationship } from '@shared/rules/audience-editor';
import type { Area, AudienceType } from '@shared/rules/audiences';
import { raiseNoticeAtom } from '../../../lib/notices';
import { sameData } from '../../../lib/unsaved-changes';

// The audience editor's draft (/audiences/{id}): what the user changes, what the server holds, and the steps
// every change of the editor goes through (atoms/open.ts opens it, atoms/save.ts saves it).

/** What the editor holds: the audience as the user is changing it, saved or not (`id` null for 'new'). */
export interface AudienceDraft {
  id: number | null;
  name: string;
  type: AudienceType | null;
  area: Area;
  isInCatalog: boolean;
  /** Without the Area relationship: the area is its own field (docs/audiences.md rule 3). */
  relationships: EditorRelationship[];
  adverts: { id: number; name: string }[];
  /**
   * The server's version the draft is based on (docs/architecture.md, "Versions and conflicts"); null when a
   * change saved at once did not answer it (the next save then goes without a check rather than refuse itself).
   */
  version: number | null;
}

export type EditorNode = EditorRelationship['node'];

export const draftAtom = atom<AudienceDraft | null>(null);
draftAtom.debugLabel = 'audiences.editor.draft';

/**
 * The draft as the server holds it (last opened, saved, or as a new audience started): the draft differs from it
 * while changes are unsaved. Changes saved at once (area, a deleted group, an attached list) are applied to both.
 */
export const pristineAtom = atom<AudienceDraft | null>(null);
pristineAtom.debugLabel = 'audiences.editor.pristine';

/** Whether the draft holds unsaved changes (docs/content.md, unsaved changes: asked before leaving). */
export const dirtyAtom = atom((get) => {
  const draft = get(draftAtom);
  const pristine = get(pristineAtom);
  return draft !== null && pristine !== null && !sameData(draft, pristine);
});
dirtyAtom.debugLabel = 'audiences.editor.dirty';

/** The fields the last 'Sauvegarder' refused, each with its message (shown beside them while still wrong). */
export const audienceFieldErrorsAtom = atom<{ name?: string; type?: string }>({});
audienceFieldErrorsAtom.debugLabel = 'audiences.editor.fieldErrors';

/** Sets the draft and what is saved to the same value. */
export const setSavedDraftAtom = atom(null, (_get, set, draft: AudienceDraft | null) => {
  set(draftAtom, draft);
  set(pristineAtom, draft);
  set(audienceFieldErrorsAtom, {});
});
setSavedDraftAtom.debugLabel = 'audiences.editor.setSavedDraft';

/** Refuses, at the fields, an audience with no type or an emptied name (never saved nor renamed silently). */
export const fieldsRefusedAtom = atom(null, (get, set): boolean => {
  const draft = get(draftAtom);
  const errors = draft ? audienceFieldErrors(draft) : {};
  set(audienceFieldErrorsAtom, errors);
  return Object.keys(errors).length > 0;
});
fieldsRefusedAtom.debugLabel = 'audiences.editor.fieldsRefused';

/** Applies a change the server already made to both the draft and what is saved. */
export const changeBothAtom = atom(null, (get, set, change: (draft: AudienceDraft) => AudienceDraft) => {
  const draft = get(draftAtom);
  const pristine = get(pristineAtom);
  if (draft) set(draftAtom, change(draft));
  if (pristine) set(pristineAtom, change(pristine));
});
changeBothAtom.debugLabel = 'audiences.editor.changeBoth';

/** 'missing': the address names no audience the editor can show (load failed, or 'new' not in memory). */
export const changeDraftAtom = atom(null, (get, set, change: (draft: AudienceDraft) => AudienceDraft) => {
  const draft = get(draftAtom);
  if (draft) set(draftAtom, change(draft));
});
changeDraftAtom.debugLabel = 'audiences.editor.change';

/** The unsaved definition, as the size and membership calls take it. */
export const definitionAtom = atom((get) => {
  const draft = get(draftAtom);
  if (!draft) return null;
  return { area: draft.area, type: draft.type, relationships: draft.relationships.map(toInput) };
});
definitionAtom.debugLabel = 'audiences.editor.definition';

export function toInput(relationship: EditorRelationship): RelationshipInput {
  return {
    node: { label: relationship.node.label, id: relationship.node.id },
    type: relationship.type,
    kind: relationship.kind,
    event: relationship.event,
    caping: relationship.caping === null || relationship.caping === '' ? null : Number(relationship.caping),
  };
}

export function fromAudience(audience: Audience): AudienceDraft {
  return {
    id: audience.id,
    name: audience.name,
    type: audience.type,
    area: audience.area,
    isInCatalog: audience.isInCatalog,
    relationships: audience.relationships
      .filter((relationship) => relationship.node.label !== 'Area')
      .map((relationship) => ({
        node: relationship.node,
        type: relationship.type,
        kind: relationship.kind,
        event: relationship.event,
        caping: relationship.caping,
      })),
    adverts: audience.adverts,
    version: audience.version ?? null,
  };
}

export const serverErrorAtom = atom(null, (_get, set, errorMsg: string) => set(raiseNoticeAtom, withText(AUDIENCE_NOTICES.serverError, errorMsg)));
serverErrorAtom.debugLabel = 'audiences.editor.serverError';
