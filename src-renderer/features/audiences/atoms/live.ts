import { atom } from 'jotai';
import type { RelationshipInput } from '@shared/contract/audiences/shared';
import { AUDIENCE_NOTICES, withText } from '@shared/messages';
import { NODE_SEARCH_LIMIT, type Area, type AudienceType, type NodeLabel } from '@shared/rules/audiences';
import { apiAtom } from '../../../lib/bridge';
import { raiseNoticeAtom } from '../../../lib/notices';

type Definition = { area: Area; type: AudienceType | null; relationships: RelationshipInput[] };

// ---- live size (ADMIN) ----------------------------------------------------------------------------------------

export interface LiveSize {
  size: number;
  labels: { label: NodeLabel; size: number }[];
}

export const liveSizeAtom = atom<LiveSize | null>(null);
liveSizeAtom.debugLabel = 'audiences.liveSize.value';
/**
 * Size of the unsaved definition and of each label group. The searches and refreshes below are started by their
 * component's query (lib/use-query.ts), whose signal tells a run a newer one replaced: it then writes nothing, so an
 * older answer never replaces a newer one.
 */
export const refreshSizeAtom = atom(null, async (get, set, definition: Definition, signal: AbortSignal) => {
  const result = await get(apiAtom)('audiences.size', { body: definition });
  if (signal.aborted) return;
  if (!result.ok) {
    set(liveSizeAtom, null);
    return set(raiseNoticeAtom, AUDIENCE_NOTICES.sizeFailed);
  }
  set(liveSizeAtom, result.data);
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
export const searchTesterUsersAtom = atom(null, async (get, set, term: string, signal: AbortSignal) => {
  const trimmed = term.trim();
  if (!trimmed) return set(testerResultsAtom, []);
  const result = await get(apiAtom)('appUsers.search', { body: { term: trimmed, limit: NODE_SEARCH_LIMIT } });
  if (signal.aborted) return;
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
export const refreshMembershipAtom = atom(null, async (get, set, definition: Definition, signal: AbortSignal) => {
  const user = get(testerUserAtom);
  if (!user) return;
  const result = await get(apiAtom)('audiences.membership', { body: { userId: user.id, ...definition } });
  if (signal.aborted) return;
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
/**
 * Spec §5 and §9: only for a non-empty term, 25 results; the server applies the filters and the exclusions.
 * Resolves to whether the search answered (false: failed, its notice raised), so the bar says 'Aucun résultat' only
 * once the search of the term shown came back empty.
 */
export const searchNodesAtom = atom(null, async (get, set, search: { term: string; audienceId: number | null }, signal: AbortSignal) => {
  const term = search.term.trim();
  if (!term) {
    set(nodeResultsAtom, []);
    return true;
  }
  const query = {
    term: term.slice(0, 200),
    limit: NODE_SEARCH_LIMIT,
    isGroup: 'false',
    ...(search.audienceId ? { audienceId: search.audienceId } : {}),
  } as const;
  const result = await get(apiAtom)('nodes.search', { query });
  if (signal.aborted) return false;
  if (!result.ok) {
    set(raiseNoticeAtom, withText(AUDIENCE_NOTICES.serverError, result.errorMsg));
    return false;
  }
  // The area has its own selector (spec §4).
  set(
    nodeResultsAtom,
    result.data.filter((node) => node.label !== 'Area'),
  );
  return true;
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
