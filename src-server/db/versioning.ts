import { eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Conflict } from '@shared/contract';
import { CONFLICT_MESSAGES, conflictTime, type VersionedRecord } from '@shared/messages/conflicts';
import { HttpError } from '../errors';
import type { Database } from './client';
import { accounts } from './schema';

/**
 * Versions of editable records (docs/architecture.md, "Versions and conflicts"). A write names the version it was
 * based on (body field `version`); the update runs `WHERE id = … AND version = …` with `bumpVersion`, and when no
 * row matched while the record exists, the handler answers `staleVersion`: 409 naming who changed it and when,
 * with the record as it is now so the editor can show theirs beside yours.
 */

/** A 409 for a stale version: the error handler sends `conflict` beside the message. */
export class ConflictError extends HttpError {
  constructor(
    message: string,
    readonly conflict: Conflict,
  ) {
    super(409, message);
    this.name = 'ConflictError';
  }
}

/** The columns a change sets: the next version and who made it. */
export function bumpVersion(table: { version: AnyColumn }, accountId: number | null): { version: SQL; updatedBy: number | null } {
  return { version: sql`${table.version} + 1`, updatedBy: accountId };
}

/** What a stale write needs to know of the record now. `updatedAt` is a Date or epoch milliseconds. */
export interface VersionState {
  version: number;
  updatedAt: Date | number;
  updatedBy: number | null;
}

/** The name of who made the newest change: one indexed read, null for an import or an account deleted since. */
export async function nameOfEditor(db: Pick<Database, 'select'>, accountId: number | null): Promise<string | null> {
  if (accountId === null) return null;
  const [row] = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, accountId)).limit(1);
  return row?.name ?? null;
}

/** The 409 of a write based on `version` when the record is now at `state` (its editor's name already read). */
export function staleVersion(
  record: VersionedRecord,
  state: Omit<VersionState, 'updatedBy'> & { editorName: string | null },
  current: Record<string, unknown> | null,
): ConflictError {
  const at = new Date(state.updatedAt);
  return new ConflictError(CONFLICT_MESSAGES.recordChanged(record, state.editorName, conflictTime(at)), {
    version: state.version,
    updatedBy: state.editorName,
    updatedAt: at.toISOString(),
    current,
  });
}
