/**
 * Local drafts (docs/architecture.md, "Versions and conflicts"): an editor's unsaved values, kept on this machine
 * per user. The desktop app keeps them in main's own store (src-main/services/drafts.ts, through the 'drafts:*'
 * channels); the web host in the browser's storage. Kept free of zod: the renderer imports it.
 */

/** One record's draft as stored: only the form's values, never a token or anything of the session. */
export interface StoredDraft<T = unknown> {
  values: T;
  /** The record's version the edits were based on (null for a record not created yet). */
  version: number | null;
  /**
   * The same fields as the server held them when the draft was written (absent in drafts written before it was
   * kept): a stale draft resumed is merged against it, so only what the user changed meets what others changed.
   */
  base?: T;
  /** When it was last written (ISO). */
  savedAt: string;
}

/** How a record is named (`advert:12`, `push:new`, `labProject:3`): a kind, a colon, an id or 'new'. */
export const DRAFT_RECORD_KEY = /^[A-Za-z][A-Za-z0-9-]{0,39}:[A-Za-z0-9_.-]{1,100}$/;

/**
 * The largest draft kept, in characters of its JSON: a long article with its screens fits many times over. The
 * total is the same order as a browser gives one origin's localStorage (about 5 million characters), so the
 * desktop keeps no less than the web host, and main's store file stays small enough to rewrite at each write.
 */
export const DRAFT_MAX_CHARS = 1_000_000;
export const DRAFTS_MAX_TOTAL_CHARS = 5_000_000;

/** The characters of `value` as JSON; Infinity for what JSON cannot hold (a cycle, a BigInt): no draft. */
export function draftJsonSize(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
