import { describeIssue, MESSAGES, type ValidationIssue } from '@shared/messages';
import { conflictSchema } from '@shared/contract';
import type { IpcFailure } from '@shared/ipc';

/**
 * Every failure main hands to the renderer is built here, so the IPC layer, the API client and the hosts all
 * say things the same way: `{ ok: false, status, errorMsg, field? }`, status 0 when no HTTP answer exists.
 */
export function failure(status: number, errorMsg: string, field?: string): IpcFailure {
  return field ? { ok: false, status, errorMsg, field } : { ok: false, status, errorMsg };
}

/** A contract check that failed in main: the server's own French wording ('Nom : 200 caractères au plus'). */
export function validationFailure(issues: readonly ValidationIssue[], part: string, status = 400): IpcFailure {
  const issue = issues[0];
  if (!issue) return failure(status, MESSAGES.invalidIpcCall);
  const described = describeIssue(issue, part);
  return failure(status, described.errorMsg, described.field);
}

/** A payload the renderer sent that does not fit the channel map: named as a bad call, status 0. */
export function invalidCallFailure(issues: readonly ValidationIssue[]): IpcFailure {
  const issue = issues[0];
  if (!issue) return failure(0, MESSAGES.invalidIpcCall);
  const described = describeIssue(issue, 'payload');
  return failure(0, `${MESSAGES.invalidIpcCall} : ${described.errorMsg}`, described.field);
}

/** A non-2xx answer of the API: its `errorMsg` (and the `field` of a validation answer) passed through. */
export function answerFailure(status: number, data: unknown): IpcFailure {
  const answer = (data && typeof data === 'object' ? data : {}) as { errorMsg?: unknown; field?: unknown; conflict?: unknown };
  const errorMsg = typeof answer.errorMsg === 'string' && answer.errorMsg ? answer.errorMsg : MESSAGES.genericError;
  const base = failure(status, errorMsg, typeof answer.field === 'string' && answer.field ? answer.field : undefined);
  // Passed on only when it has the contract's shape: the renderer reads it to show theirs beside yours.
  const conflict = status === 409 ? conflictSchema.safeParse(answer.conflict) : null;
  return conflict?.success ? { ...base, conflict: conflict.data } : base;
}

/** A thrown error turned into a failure: its message when it has one. */
export function thrownFailure(error: unknown, status = 0): IpcFailure {
  return failure(status, error instanceof Error && error.message ? error.message : MESSAGES.genericError);
}
