import { atom } from 'jotai';
import type { RelationshipInput } from '@shared/contract/audiences/shared';
import { AUDIENCE_NOTICES, withText } from '@shared/messages';
import { NODE_SEARCH_LIMIT, type Area, type AudienceType, type NodeLabel } from '@shared/rules/audiences';
import type { ApiInput } from '../../../bridge/api';
import { apiAtom } from '../../../lib/bridge';
import { createLatestCall } from '../../../lib/latest-call';
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
/** Only the latest answer counts (lib/latest-call.ts): an older answer never replaces a newer one. */
const sizeCall = createLatestCall('audiences.liveSize.request', (get, definition: Definition) =>
  get(apiAtom)('audiences.size', { body: definition }),
);

/** Size of the unsaved definition and of each label group; an older answer never replaces a newer one. */
export const refreshSizeAtom = atom(null, async (_get, set, definition: Definition) => {
  const result = await set(sizeCall.runAtom, definition);
  if (!result) return;
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
/** Only the latest search's and the latest membership's answers count (lib/latest-call.ts). */
const testerSearchCall = createLatestCall('audiences.tester.searchRequest', (get, term: string) =>
  get(apiAtom)('appUsers.search', { body: { term, limit: NODE_SEARCH_LIMIT } }),
);
const testerMembershipCall = createLatestCall('audiences.tester.membershipRequest', (get, body: Definition & { userId: number }) =>
  get(apiAtom)('audiences.membership', { body }),
);

export const searchTesterUsersAtom = atom(null, async (_get, set, term: string) => {
  const trimmed = term.trim();
  if (!trimmed) {
    set(testerSearchCall.cancelAtom);
    return set(testerResultsAtom, []);
  }
  const result = await set(testerSearchCall.runAtom, trimmed);
  if (!result) return;
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
  const result = await set(testerMembershipCall.runAtom, { userId: user.id, ...definition });
  if (!result) return;
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
/** Only the latest search's answer is shown (lib/latest-call.ts). */
const nodeSearchCall = createLatestCall('audiences.nodeSearch.request', (get, query: ApiInput<'nodes.search'>['query']) =>
  get(apiAtom)('nodes.search', { query }),
);

/** Spec §5 and §9: only for a non-empty term, 25 results; the server applies the filters and the exclusions. */
export const searchNodesAtom = atom(null, async (_get, set, search: { term: string; audienceId: number | null }) => {
  const term = search.term.trim();
  if (!term) {
    set(nodeSearchCall.cancelAtom);
    set(nodeResultsTermAtom, null);
    return set(nodeResultsAtom, []);
  }
  const result = await set(nodeSearchCall.runAtom, {
    term: term.slice(0, 200),
    limit: NODE_SEARCH_LIMIT,
    isGroup: 'false',
    ...(search.audienceId ? { audienceId: search.audienceId } : {}),
  });
  if (!result) return;
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

/** Reads a user's audiences; a read the page's query replaced (another user asked for) writes nothing. */
export const loadDebugAtom = atom(null, async (get, set, userId: number, signal?: AbortSignal) => {
  set(debugLoadingAtom, true);
  const result = await get(apiAtom)('audiences.debug', { params: { userId } });
  set(debugLoadingAtom, false);
  if (signal?.aborted) return;
  if (!result.ok) {
    set(debugAnswerAtom, null);
    return set(raiseNoticeAtom, withText(AUDIENCE_NOTICES.serverError, result.errorMsg));
  }
  set(debugAnswerAtom, { userId, ...result.data });
});
loadDebugAtom.debugLabel = 'audiences.debug.load';
