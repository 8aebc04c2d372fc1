import { createHash } from 'node:crypto';
import { DRAFT_MAX_CHARS, DRAFTS_MAX_TOTAL_CHARS, draftJsonSize, type StoredDraft } from '@shared/drafts';
import type { IpcResult } from '@shared/ipc';
import { MESSAGES } from '@shared/messages';
import { failure } from './failures';
import type { KeyValueStore } from './session-vault';

/**
 * Who the drafts belong to, as main's own session says (never the page): the user on the API that signed them in,
 * and that session's tokens, which no draft may hold.
 */
export interface DraftOwner {
  userId: number;
  /** The API the session was issued by: user 3 of the embedded server is not user 3 of a team server. */
  api: string;
  secrets: readonly string[];
}

export interface DraftLimits {
  /** Characters of one draft's JSON. */
  draftChars: number;
  /** Characters of every draft's JSON together, every user of this machine. */
  totalChars: number;
}

type OwnerDrafts = Record<string, StoredDraft>;

/** The one key of the store: owner → record key → draft (one file rewritten whole by electron-store at each write). */
const OWNERS_KEY = 'owners';

/**
 * The desktop app's local drafts (docs/architecture.md, "Versions and conflicts"), on a store of their own
 * (electron-store 'drafts', apart from the settings and the session): written within a second of typing by the
 * editors, offered back after a crash, a forced quit or a sign-out by expiry. Values only, capped per draft and in
 * total; a refusal says why and changes nothing.
 */
export class DraftStore {
  private readonly limits: DraftLimits;

  constructor(
    private readonly backend: KeyValueStore,
    limits: Partial<DraftLimits> = {},
  ) {
    this.limits = { draftChars: DRAFT_MAX_CHARS, totalChars: DRAFTS_MAX_TOTAL_CHARS, ...limits };
  }

  list(owner: DraftOwner): OwnerDrafts {
    return { ...this.all()[ownerKey(owner)] };
  }

  put(owner: DraftOwner, recordKey: string, draft: StoredDraft): IpcResult<{ kept: true }> {
    const size = draftJsonSize(draft);
    if (size > this.limits.draftChars) return failure(413, MESSAGES.draftTooLarge, 'draft');
    const json = JSON.stringify(draft);
    // A page could put anything in a form's values: the session's tokens never reach a file in clear.
    if (owner.secrets.some((secret) => secret.length > 0 && json.includes(secret))) return failure(400, MESSAGES.draftHoldsSecret, 'draft');
    const all = this.all();
    const key = ownerKey(owner);
    const mine = { ...all[key], [recordKey]: JSON.parse(json) as StoredDraft };
    const next = { ...all, [key]: mine };
    // The draft it replaces is not counted twice: the total is the store as it would be.
    if (draftJsonSize(next) > this.limits.totalChars) return failure(413, MESSAGES.draftsFull, 'draft');
    this.backend.set(OWNERS_KEY, next);
    return { ok: true, data: { kept: true } };
  }

  remove(owner: DraftOwner, recordKey: string): { removed: boolean } {
    const all = this.all();
    const key = ownerKey(owner);
    const mine = all[key];
    if (!mine || !Object.hasOwn(mine, recordKey)) return { removed: false };
    const rest = Object.fromEntries(Object.entries(mine).filter(([name]) => name !== recordKey));
    const next = Object.fromEntries(Object.entries(all).filter(([name]) => name !== key));
    this.backend.set(OWNERS_KEY, Object.keys(rest).length > 0 ? { ...next, [key]: rest } : next);
    return { removed: true };
  }

  /** Every owner's drafts; a store edited by hand into another shape reads as none. */
  private all(): Record<string, OwnerDrafts> {
    const stored = this.backend.get(OWNERS_KEY);
    return stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Record<string, OwnerDrafts>) : {};
  }
}

/** An owner as a name without dots (electron-store reads dots as nesting) that says nothing of the API or the user. */
function ownerKey(owner: DraftOwner): string {
  return createHash('sha256').update(`${owner.api}\u0000${owner.userId}`).digest('hex').slice(0, 32);
}
