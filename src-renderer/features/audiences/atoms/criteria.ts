import { atom } from 'jotai';
import { AUDIENCE_NOTICES } from '@shared/messages';
import { hasNode, keywordAllowed, type EditorRelationship } from '@shared/rules/audience-editor';
import type { NodeLabel } from '@shared/rules/audiences';
import { apiAtom } from '../../../lib/bridge';
import { raiseNoticeAtom } from '../../../lib/notices';
import { changeBothAtom, changeDraftAtom, draftAtom, fromAudience, pristineAtom, serverErrorAtom, toInput, type EditorNode } from './draft';
import { createFromDraftAtom } from './save';

// The audience's criteria in the editor: nodes added, changed and removed, new groups and keywords, attached lists.

/**
 * Adds a criterion. Refused when the node is already there (spec §4) or is a keyword on a timeline audience
 * (an alert). On a new audience the audience is created first; answers its id then, so the screen moves to it.
 */
export const addNodeAtom = atom(null, async (get, set, node: EditorNode): Promise<{ createdId: number } | null> => {
  const draft = get(draftAtom);
  if (!draft) return null;
  if (hasNode(draft.relationships, node)) {
    set(raiseNoticeAtom, AUDIENCE_NOTICES.nodeAlreadyInGroup);
    return null;
  }
  if (node.label === 'Keyword' && !keywordAllowed(draft.type)) {
    set(raiseNoticeAtom, AUDIENCE_NOTICES.keywordOnTimeline);
    return null;
  }
  const searchKeyword = node.label === 'Keyword' && draft.type === 'search';
  const relationship: EditorRelationship = {
    node,
    type: searchKeyword ? 'SEARCH' : 'AND',
    kind: 'required',
    event: searchKeyword ? 'search' : null,
    caping: null,
  };
  set(draftAtom, { ...draft, relationships: [...draft.relationships, relationship] });
  if (draft.id !== null) return null;
  const id = await set(createFromDraftAtom);
  if (id === null) {
    set(changeDraftAtom, (current) => ({
      ...current,
      relationships: current.relationships.filter((r) => !(r.node.id === node.id && r.node.label === node.label)),
    }));
    return null;
  }
  set(raiseNoticeAtom, AUDIENCE_NOTICES.saved);
  return { createdId: id };
});
addNodeAtom.debugLabel = 'audiences.editor.addNode';

const sameNode = (relationship: EditorRelationship, node: { id: number; label: NodeLabel }) =>
  relationship.node.id === node.id && relationship.node.label === node.label;

export const updateRelationshipAtom = atom(
  null,
  (_get, set, node: { id: number; label: NodeLabel }, patch: Partial<Pick<EditorRelationship, 'kind' | 'event' | 'caping'>>) =>
    set(changeDraftAtom, (draft) => ({ ...draft, relationships: draft.relationships.map((r) => (sameNode(r, node) ? { ...r, ...patch } : r)) })),
);
updateRelationshipAtom.debugLabel = 'audiences.editor.updateRelationship';

/** Takes the criterion out of the audience (for a group: unlinks it, the group stays). */
export const removeRelationshipAtom = atom(null, (_get, set, node: { id: number; label: NodeLabel }) =>
  set(changeDraftAtom, (draft) => ({ ...draft, relationships: draft.relationships.filter((r) => !sameNode(r, node)) })),
);
removeRelationshipAtom.debugLabel = 'audiences.editor.removeRelationship';

/** Spec §4: a group relationship can be removed: the group itself is deleted, from every audience. */
export const deleteGroupNodeAtom = atom(null, async (get, set, node: { id: number; label: NodeLabel }) => {
  const result = await get(apiAtom)('graph.delete', { body: { nodes: [node.id], relationships: [] } });
  if (!result.ok) return set(serverErrorAtom, result.errorMsg);
  set(changeBothAtom, (draft) => ({ ...draft, relationships: draft.relationships.filter((r) => !sameNode(r, node)), version: null }));
  set(raiseNoticeAtom, AUDIENCE_NOTICES.saved);
});
deleteGroupNodeAtom.debugLabel = 'audiences.editor.deleteGroupNode';
/**
 * A new OrGroup / AndGroup ("add new group"), added to the audience at once. On a saved audience the link is
 * saved with the group (docs/audiences.md: a group kept only in the draft was lost, and left orphan, as soon as the
 * user followed its link); a new audience is created with it (addNode). The draft's other changes stay unsaved.
 */
export const createGroupAtom = atom(null, async (get, set, group: { name: string; label: 'OrGroup' | 'AndGroup' }) => {
  const api = get(apiAtom);
  const result = await api('groups.create', { body: { name: group.name.trim(), label: group.label, relationships: [] } });
  if (!result.ok) {
    set(serverErrorAtom, result.errorMsg);
    return null;
  }
  const node: EditorNode = { id: result.data.id, label: result.data.label, name: result.data.name };
  const audienceId = get(draftAtom)?.id ?? null;
  if (audienceId === null) return set(addNodeAtom, node);
  const relationship: EditorRelationship = { node, type: 'AND', kind: 'required', event: null, caping: null };
  const linked = await api('relationships.create', { body: { source: audienceId, ...toInput(relationship) } });
  if (!linked.ok) {
    // Not linked: the group would stay alone in /groupes.
    await api('graph.delete', { body: { nodes: [node.id], relationships: [] } });
    set(serverErrorAtom, linked.errorMsg);
    return null;
  }
  if (get(draftAtom)?.id !== audienceId) return null;
  set(changeBothAtom, (draft) =>
    hasNode(draft.relationships, node)
      ? { ...draft, version: null }
      : { ...draft, relationships: [...draft.relationships, relationship], version: null },
  );
  set(raiseNoticeAtom, AUDIENCE_NOTICES.saved);
  return null;
});
createGroupAtom.debugLabel = 'audiences.editor.createGroup';

/** The new keyword modal: the Keyword node of the text (trimmed and lowercased by the server), then added. */
export const addKeywordAtom = atom(null, async (get, set, text: string) => {
  if (!keywordAllowed(get(draftAtom)?.type)) {
    set(raiseNoticeAtom, AUDIENCE_NOTICES.keywordOnTimeline);
    return null;
  }
  const result = await get(apiAtom)('nodes.keyword', { body: { name: text } });
  if (!result.ok) {
    set(serverErrorAtom, result.errorMsg);
    return null;
  }
  return set(addNodeAtom, result.data);
});
addKeywordAtom.debugLabel = 'audiences.editor.addKeyword';

/**
 * After an e-mail list was attached on the server, the User relationships it added join the draft (other
 * unsaved changes stay). Answers how many were added.
 */
export const mergeAttachedUsersAtom = atom(null, async (get, set, id: number): Promise<number | null> => {
  const result = await get(apiAtom)('audiences.get', { params: { id } });
  if (!result.ok) {
    set(serverErrorAtom, result.errorMsg);
    return null;
  }
  const draft = get(draftAtom);
  if (!draft) return null;
  const attached = fromAudience(result.data).relationships.filter((r) => r.node.label === 'User');
  const added = attached.filter((r) => !hasNode(draft.relationships, r.node));
  const version = result.data.version ?? null;
  set(draftAtom, { ...draft, relationships: [...draft.relationships, ...added], version });
  // They are saved: what is saved gets them too (the draft's other changes stay unsaved).
  const pristine = get(pristineAtom);
  if (pristine)
    set(pristineAtom, {
      ...pristine,
      version,
      relationships: [...pristine.relationships, ...attached.filter((r) => !hasNode(pristine.relationships, r.node))],
    });
  return added.length;
});
mergeAttachedUsersAtom.debugLabel = 'audiences.editor.mergeAttachedUsers';
