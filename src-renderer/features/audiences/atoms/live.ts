import { atom } from 'jotai';
import type { RelationshipInput } from '@shared/contract/audiences';
import { AUDIENCE_NOTICES, withText } from '@shared/messages';
import { NODE_SEARCH_LIMIT, type Area, type AudienceType, type NodeLabel } from '@shared/rules/audiences';
import { apiAtom } from '../../../lib/bridge';
import { raiseNoticeAtom } from '../../../lib/notices';

type Definition = { area: Area; type: AudienceType | null; relationships: RelationshipInput[] };

// ---- live size (ADMIN) ----------------------------------------------------------------------------------------

export interface LiveSize {
  size: number;
  labels: { label: NodeLabel; size: number }[];
  /** The definition it was computed for, so the screen knows when it is current. */
  of: Definition;
}

export const liveSizeAtom = atom<LiveSize | null>(null);
liveSizeAtom.debugLabel = 'audiences.liveSize.value';
const sizeRequestAtom = atom(0);
sizeRequestAtom.debugLabel = 'audiences.liveSize.latestRequest';

/** Size of the unsaved definition and of each label group; an older answer never replaces a newer one. */
export const refreshSizeAtom = atom(null, async (get, set, definition: Definition) => {
  const request = get(sizeRequestAtom) + 1;
  set(sizeRequestAtom, request);
  const result = await get(apiAtom)('audiences.size', { body: definition });
  if (request !== get(sizeRequestAtom)) return;
  if (!result.ok) {
    set(liveSizeAtom, null);
    return set(raiseNoticeAtom, AUDIENCE_NOTICES.sizeFailed);
  }
  set(liveSizeAtom, { ...result.data, of: definition });
});
refreshSizeAtom.debugLabel = 'audiences.liveSize.refresh';

// ---- live tester ----------------------------------------------------------------------------------------------

export interface TesterUser {
  id: number;
  email: string;
  name: string;
}

export const testerTermAtom = atom('');
testerTermAtom.debugLabel = 'audiences.tester.term';
export const testerResultsAtom = atom<TesterUser[]>([]);
testerResultsAtom.debugLabel = 'audiences.tester.results';
export const testerUserAtom = atom<TesterUser | null>(null);
testerUserAtom.debugLabel = 'audiences.tester.user';
export const testerAnswerAtom = atom<{ member: boolean; labels: { label: NodeLabel; member: boolean }[] } | null>(null);
testerAnswerAtom.debugLabel = 'audiences.tester.answer';
const testerSearchRequestAtom = atom(0);
testerSearchRequestAtom.debugLabel = 'audiences.tester.latestSearch';
const testerMembershipRequestAtom = atom(0);
testerMembershipRequestAtom.debugLabel = 'audiences.tester.latestMembership';

export const searchTesterUsersAtom = atom(null, async (get, set, term: string) => {
  const request = get(testerSearchRequestAtom) + 1;
  set(testerSearchRequestAtom, request);
  const trimmed = term.trim();
  if (!trimmed) return set(testerResultsAtom, []);
  const result = await get(apiAtom)('appUsers.search', { body: { term: trimmed, limit: NODE_SEARCH_LIMIT } });
  if (request !== get(testerSearchRequestAtom)) return;
  if (!result.ok) return set(testerResultsAtom, []);
  set(
    testerResultsAtom,
    result.data.map(({ id, email, name }) => ({ id, email, name })),
  );
});
searchTesterUsersAtom.debugLabel = 'audiences.tester.search';

export const chooseTesterUserAtom = atom(null, (_get, set, user: TesterUser | null) => {
  set(testerUserAtom, user);
  set(testerAnswerAtom, null);
  set(testerResultsAtom, []);
});
chooseTesterUserAtom.debugLabel = 'audiences.tester.choose';

/** Whether the chosen user belongs to the unsaved definition, and to each label group. */
export const refreshMembershipAtom = atom(null, async (get, set, definition: Definition) => {
  const user = get(testerUserAtom);
  if (!user) return;
  const request = get(testerMembershipRequestAtom) + 1;
  set(testerMembershipRequestAtom, request);
  const result = await get(apiAtom)('audiences.membership', { body: { userId: user.id, ...definition } });
  if (request !== get(testerMembershipRequestAtom)) return;
  if (!result.ok) {
    set(testerAnswerAtom, null);
    return set(raiseNoticeAtom, withText(AUDIENCE_NOTICES.serverError, result.errorMsg));
  }
  set(testerAnswerAtom, result.data);
});
refreshMembershipAtom.debugLabel = 'audiences.tester.refresh';

export const resetLiveAtom = atom(null, (_get, set) => {
  set(liveSizeAtom, null);
  set(testerTermAtom, '');
  set(testerResultsAtom, []);
  set(testerUserAtom, null);
  set(testerAnswerAtom, null);
});
resetLiveAtom.debugLabel = 'audiences.live.reset';

// ---- criteria search ------------------------------------------------------------------------------------------

export const nodeTermAtom = atom('');
nodeTermAtom.debugLabel = 'audiences.nodeSearch.term';
export const nodeResultsAtom = atom<{ id: number; label: NodeLabel; name: string }[]>([]);
nodeResultsAtom.debugLabel = 'audiences.nodeSearch.results';
/** The term the results answer (trimmed): 'Aucun résultat' only once the search of the term shown came back empty. */
export const nodeResultsTermAtom = atom<string | null>(null);
nodeResultsTermAtom.debugLabel = 'audiences.nodeSearch.resultsTerm';
const nodeSearchRequestAtom = atom(0);
nodeSearchRequestAtom.debugLabel = 'audiences.nodeSearch.latestRequest';

/** Spec §5 and §9: only for a non-empty term, 25 results; the server applies the filters and the exclusions. */
export const searchNodesAtom = atom(null, async (get, set, search: { term: string; audienceId: number | null }) => {
  const request = get(nodeSearchRequestAtom) + 1;
  set(nodeSearchRequestAtom, request);
  const term = search.term.trim();
  if (!term) {
    set(nodeResultsTermAtom, null);
    return set(nodeResultsAtom, []);
  }
  const result = await get(apiAtom)('nodes.search', {
    query: { term: term.slice(0, 200), limit: NODE_SEARCH_LIMIT, isGroup: 'false', ...(search.audienceId ? { audienceId: search.audienceId } : {}) },
  });
  if (request !== get(nodeSearchRequestAtom)) return;
  if (!result.ok) return set(raiseNoticeAtom, withText(AUDIENCE_NOTICES.serverError, result.errorMsg));
  // The area has its own selector (spec §4).
  set(
    nodeResultsAtom,
    result.data.filter((node) => node.label !== 'Area'),
  );
  set(nodeResultsTermAtom, term);
});
searchNodesAtom.debugLabel = 'audiences.nodeSearch.search';

// ---- debug page -----------------------------------------------------------------------------------------------

export const debugAnswerAtom = atom<{ userId: number; audiences: { id: number; name: string }[]; adverts: { id: number; name: string }[] } | null>(
  null,
);
debugAnswerAtom.debugLabel = 'audiences.debug.answer';
export const debugLoadingAtom = atom(false);
debugLoadingAtom.debugLabel = 'audiences.debug.loading';

export const loadDebugAtom = atom(null, async (get, set, userId: number) => {
  set(debugLoadingAtom, true);
  const result = await get(apiAtom)('audiences.debug', { params: { userId } });
  set(debugLoadingAtom, false);
  if (!result.ok) {
    set(debugAnswerAtom, null);
    return set(raiseNoticeAtom, withText(AUDIENCE_NOTICES.serverError, result.errorMsg));
  }
  set(debugAnswerAtom, { userId, ...result.data });
});
loadDebugAtom.debugLabel = 'audiences.debug.load';
