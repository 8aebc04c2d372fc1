import type { IpcResult } from '@shared/ipc';
import { MESSAGES } from '@shared/messages';
import type { DraftOwner, DraftStore } from '../services/drafts';
import { failure } from '../services/failures';
import type { IpcHandlers } from './handler-types';

type DraftHandlers = Pick<IpcHandlers, 'drafts:list' | 'drafts:put' | 'drafts:remove'>;

/**
 * The 'drafts:*' channels (payloads already checked against src-shared/ipc.ts). The owner is main's signed-in
 * user, read from its own session at each call: a page cannot name another user, and without a session nothing
 * is read or written. A host without a store (the web host: drafts stay in the browser) says so.
 */
export function draftHandlers(store: DraftStore | undefined, owner: () => Promise<DraftOwner | null>): DraftHandlers {
  const withOwner = async <T>(work: (store: DraftStore, owner: DraftOwner) => IpcResult<T>): Promise<IpcResult<T>> => {
    if (!store) return failure(404, MESSAGES.draftsNotKept);
    const current = await owner();
    if (!current) return failure(401, MESSAGES.sessionExpired);
    return work(store, current);
  };
  return {
    'drafts:list': () => withOwner((drafts, current) => ({ ok: true, data: { userId: current.userId, drafts: drafts.list(current) } })),
    'drafts:put': ({ recordKey, draft }) => withOwner((drafts, current) => drafts.put(current, recordKey, draft)),
    'drafts:remove': ({ recordKey }) => withOwner((drafts, current) => ({ ok: true, data: drafts.remove(current, recordKey) })),
  };
}
