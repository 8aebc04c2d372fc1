import { randomUUID } from 'node:crypto';
import { RetryAgent, type Dispatcher } from 'undici';
import type { Operation } from '@shared/contract';
import { retryAfterMs } from '@shared/rules/retry-after';

/**
 * When main's API client tries a request again: only requests that cannot do a thing twice (reads that write
 * nothing, and creates or writing GETs carrying an Idempotency-Key the server answers once, src-server/idempotency.ts), only for answers that say
 * "later" (connection refused or cut, 429, 502, 503), after a growing, jittered wait or the server's Retry-After,
 * and within a total bound. A plain write is never sent twice.
 */
export const RETRY_BOUNDS = {
  /** Tries after the first. */
  maxRetries: 4,
  /** The first wait; each next one doubles, up to maxDelayMs. */
  baseDelayMs: 300,
  maxDelayMs: 5_000,
  /** The longest Retry-After honoured: a server asking for more is answered with its error. */
  maxRetryAfterMs: 10_000,
  /** All tries of one call, waits included. */
  totalMs: 30_000,
} as const;

export const RETRY_STATUSES = [429, 502, 503] as const;
export const RETRY_ERROR_CODES = [
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'ENETDOWN',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
] as const;

type RetryFacts = Pick<Operation, 'method' | 'successStatus' | 'multipart' | 'sideEffects'>;

/**
 * Whether a call of `operation` may be sent again: a read that creates nothing (at most a get-or-create), or a
 * write that carries its key.
 */
export function isRetryable(operation: RetryFacts): boolean {
  return (operation.method === 'GET' && operation.sideEffects !== 'creates') || sendsIdempotencyKey(operation);
}

/**
 * Creates (operations answering 201) and GETs that create (`sideEffects: 'creates'`) carry an Idempotency-Key; uploads are
 * streams, never sent twice.
 */
export function sendsIdempotencyKey(operation: Pick<Operation, 'successStatus' | 'multipart' | 'sideEffects'>): boolean {
  return (operation.successStatus === 201 || operation.sideEffects === 'creates') && !operation.multipart;
}

export const newIdempotencyKey = (): string => randomUUID();

/**
 * The wait before try `attempt` (1 for the first retry), or null to give up: the server's Retry-After when it
 * gives one (up to its bound), else an exponential wait with "equal jitter" (half fixed, half random), so that
 * clients cut off together do not all come back at the same instant.
 */
export function retryDelayMs(attempt: number, retryAfter: number | undefined, random: () => number = Math.random): number | null {
  if (attempt > RETRY_BOUNDS.maxRetries) return null;
  if (retryAfter !== undefined) return retryAfter <= RETRY_BOUNDS.maxRetryAfterMs ? retryAfter : null;
  return equalJitter(Math.min(RETRY_BOUNDS.maxDelayMs, RETRY_BOUNDS.baseDelayMs * 2 ** (attempt - 1)), random);
}

/** Half of `ceilingMs` fixed, half random: clients cut off together spread out when they come back. */
export const equalJitter = (ceilingMs: number, random: () => number = Math.random): number => Math.round(ceilingMs / 2 + (random() * ceilingMs) / 2);

type RetryCallback = (error: Error | null) => void;
interface RetryError extends Error {
  statusCode?: number;
  code?: string;
  headers?: Record<string, string | string[] | undefined>;
}

/** A dispatcher that retries as above over `inner` (undici's RetryAgent, with this policy's decision). */
export function retryingDispatcher(inner: Dispatcher): Dispatcher {
  return new RetryAgent(inner, {
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    statusCodes: [...RETRY_STATUSES],
    errorCodes: [...RETRY_ERROR_CODES],
    // The last "later" answer reaches the caller as an answer (its French errorMsg), not as a thrown error.
    throwOnError: false,
    retry(error: RetryError, { state }: { state: { counter: number } }, callback: RetryCallback) {
      const statusOk = error.statusCode === undefined || (RETRY_STATUSES as readonly number[]).includes(error.statusCode);
      const codeOk = error.code === undefined || error.code === 'UND_ERR_REQ_RETRY' || (RETRY_ERROR_CODES as readonly string[]).includes(error.code);
      const delay = statusOk && codeOk ? retryDelayMs(state.counter, retryAfterMs(error.headers?.['retry-after'])) : null;
      if (delay === null) {
        callback(error);
        return;
      }
      setTimeout(() => callback(null), delay).unref();
    },
  });
}
