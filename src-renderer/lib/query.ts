/**
 * The renderer's one loader kernel (docs/architecture.md, "How a screen loads data"): a query loads on arrival,
 * again when its key changes (debounced for a search box) and on `refresh`. Each run gets an AbortSignal that is
 * aborted as soon as a newer run replaces it or the screen goes away; an aborted run's answer (or failure) is
 * dropped here, once for every screen, so no screen keeps its own "stale" or "cancelled" flag. The bridge cannot
 * cancel what main already sent: the answer still arrives, unused.
 *
 * This module holds the React-free part (tested in tests/renderer/query.test.ts); lib/use-query.ts binds it to a
 * component.
 */

import type { IpcFailure, IpcResult } from '@shared/ipc';

/** The pause in typing a search box waits for before it asks the server again (every list and search box). */
export const SEARCH_DEBOUNCE_MS = 300;

export type QueryLoad<T> = (signal: AbortSignal) => Promise<T>;

export interface QuerySnapshot<T> {
  /** The last answer, kept while a newer run is under way (a search box keeps its results while typing). */
  data: T | undefined;
  /** What the last run threw, or undefined when it answered. */
  error: unknown;
  /** A run was started and has not settled yet (including its debounce pause). */
  loading: boolean;
  /** The key of the run that set `data`/`error`, or of the run under way. */
  key: string | undefined;
}

export interface QueryRun<T> {
  key: string;
  load: QueryLoad<T>;
  /** Waited before the load when the key differs from the previous run's (typing); 0 or absent: at once. */
  debounceMs?: number;
  /** Told what a run threw, unless a newer run replaced it. */
  onError?: (error: unknown) => void;
  /** Polling: once a run settled (answer or failure), the same run starts again after this pause; 0 or absent: never. */
  refreshMs?: number;
}

/** One query's runs: at most one under way, the previous one aborted when another starts or `stop` is called. */
export function createQuery<T>() {
  let snapshot: QuerySnapshot<T> = { data: undefined, error: undefined, loading: false, key: undefined };
  let current: { controller: AbortController; timer: ReturnType<typeof setTimeout> | undefined } | null = null;
  let last: QueryRun<T> | null = null;
  const listeners = new Set<() => void>();

  const update = (next: Partial<QuerySnapshot<T>>) => {
    snapshot = { ...snapshot, ...next };
    for (const listener of listeners) listener();
  };

  /** Aborts the run under way (its answer will be dropped) and clears its debounce pause. */
  const stop = () => {
    if (!current) return;
    clearTimeout(current.timer);
    current.controller.abort();
    current = null;
  };

  /** The next poll of a settled run (the last run's refreshMs), on the run's own timer: `stop` and a newer run clear it. */
  const schedulePoll = (signal: AbortSignal) => {
    if (!last?.refreshMs || signal.aborted || !current) return;
    const run = last;
    current.timer = setTimeout(() => start(run, true), run.refreshMs);
  };

  const execute = async (run: QueryRun<T>, signal: AbortSignal) => {
    try {
      const data = await run.load(signal);
      if (!signal.aborted) update({ data, error: undefined, loading: false });
    } catch (error) {
      if (signal.aborted) return;
      update({ error, loading: false });
      run.onError?.(error);
    }
    schedulePoll(signal);
  };

  /** Starts a run, aborting the one under way; a new key waits `debounceMs` first, the same key (a refresh) does not. */
  function start(run: QueryRun<T>, immediate = false) {
    stop();
    const delay = !immediate && last !== null && last.key !== run.key ? (run.debounceMs ?? 0) : 0;
    last = run;
    const controller = new AbortController();
    const timer = delay > 0 ? setTimeout(() => void execute(run, controller.signal), delay) : undefined;
    current = { controller, timer };
    update({ loading: true, key: run.key });
    if (delay === 0) void execute(run, controller.signal);
  }

  return {
    start,
    stop,
    /**
     * Changes the polling pause without a run now (polling starts or stops with what the screen shows): a settled
     * run polls again `refreshMs` from now, 0 cancels its next poll; a run under way reads it once it settles.
     */
    setRefreshMs: (refreshMs: number) => {
      if (!last || (last.refreshMs ?? 0) === refreshMs) return;
      last = { ...last, refreshMs };
      if (!current || snapshot.loading) return;
      clearTimeout(current.timer);
      schedulePoll(current.controller.signal);
    },
    /** Runs the last run again at once (after a write, or a "retry" button). */
    refresh: () => {
      if (last) start(last, true);
    },
    snapshot: () => snapshot,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** An API failure thrown by `dataOf`: a query's `error` and `onError` get the server's status and text. */
export class ApiError extends Error {
  readonly status: IpcFailure['status'];
  constructor(failure: IpcFailure) {
    super(failure.errorMsg);
    this.status = failure.status;
  }
}

/** The data of an API answer, for a query's load: a failure is thrown as an ApiError. */
export async function dataOf<T>(answer: Promise<IpcResult<T>>): Promise<T> {
  const result = await answer;
  if (!result.ok) throw new ApiError(result);
  return result.data;
}
