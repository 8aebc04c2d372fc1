import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQuery, SEARCH_DEBOUNCE_MS } from '../../src-renderer/lib/query';

/** A load whose answers the test gives by hand, recording each call's key and signal. */
function manualLoad() {
  const calls: { key: string; signal: AbortSignal; resolve: (value: string) => void; reject: (error: unknown) => void }[] = [];
  const loadFor = (key: string) => (signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      calls.push({ key, signal, resolve, reject });
    });
  return { calls, loadFor };
}

const settle = () => vi.advanceTimersByTimeAsync(0);

describe('the loader kernel (lib/query.ts)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('aborts the previous run when the key changes and drops its late answer', async () => {
    const query = createQuery<string>();
    const { calls, loadFor } = manualLoad();
    query.start({ key: 'a', load: loadFor('a') });
    expect(query.snapshot().loading).toBe(true);
    query.stop();
    query.start({ key: 'b', load: loadFor('b') });
    expect(calls.map((call) => call.key)).toEqual(['a', 'b']);
    expect(calls[0].signal.aborted).toBe(true);
    expect(calls[1].signal.aborted).toBe(false);

    calls[1].resolve('answer b');
    await settle();
    calls[0].resolve('answer a');
    await settle();
    expect(query.snapshot()).toMatchObject({ data: 'answer b', loading: false, key: 'b' });
  });

  it('aborts the run under way when stopped (the component unmounts) and never writes its answer', async () => {
    const query = createQuery<string>();
    const { calls, loadFor } = manualLoad();
    const seen = vi.fn();
    query.subscribe(seen);
    query.start({ key: 'a', load: loadFor('a') });
    query.stop();
    expect(calls[0].signal.aborted).toBe(true);
    const updates = seen.mock.calls.length;
    calls[0].resolve('late');
    await settle();
    expect(seen.mock.calls.length).toBe(updates);
    expect(query.snapshot().data).toBeUndefined();
  });

  it('runs the last load again at once on refresh, aborting the one under way and keeping the data meanwhile', async () => {
    const query = createQuery<string>();
    const { calls, loadFor } = manualLoad();
    query.start({ key: 'a', load: loadFor('a'), debounceMs: SEARCH_DEBOUNCE_MS });
    calls[0].resolve('first');
    await settle();
    query.refresh();
    expect(calls).toHaveLength(2);
    expect(query.snapshot()).toMatchObject({ data: 'first', loading: true });
    query.refresh();
    expect(calls).toHaveLength(3);
    expect(calls[1].signal.aborted).toBe(true);
    calls[2].resolve('second');
    await settle();
    expect(query.snapshot()).toMatchObject({ data: 'second', loading: false });
  });

  it('loads the first key at once, then waits for a pause in typing: keys typed fast make one call', async () => {
    const query = createQuery<string>();
    const { calls, loadFor } = manualLoad();
    const run = (key: string) => query.start({ key, load: loadFor(key), debounceMs: SEARCH_DEBOUNCE_MS });
    run('');
    expect(calls.map((call) => call.key)).toEqual(['']);
    for (const key of ['c', 'ch', 'chl', 'chlo']) {
      run(key);
      await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 10);
    }
    expect(calls.map((call) => call.key)).toEqual(['']);
    expect(calls[0].signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(10);
    expect(calls.map((call) => call.key)).toEqual(['', 'chlo']);
    // The same key again (React starting an effect twice) does not wait.
    run('chlo');
    expect(calls.map((call) => call.key)).toEqual(['', 'chlo', 'chlo']);
  });

  it('surfaces what a load threw, and tells onError, but not for a run a newer one replaced', async () => {
    const query = createQuery<string>();
    const { calls, loadFor } = manualLoad();
    const onError = vi.fn();
    query.start({ key: 'a', load: loadFor('a'), onError });
    query.start({ key: 'b', load: loadFor('b'), onError });
    calls[0].reject(new Error('old failure'));
    await settle();
    expect(onError).not.toHaveBeenCalled();
    expect(query.snapshot().loading).toBe(true);
    calls[1].reject(new Error('Serveur indisponible'));
    await settle();
    expect(onError).toHaveBeenCalledTimes(1);
    expect(query.snapshot()).toMatchObject({ loading: false, key: 'b' });
    expect((query.snapshot().error as Error).message).toBe('Serveur indisponible');

    query.refresh();
    calls[2].resolve('back');
    await settle();
    expect(query.snapshot()).toMatchObject({ data: 'back', error: undefined });
  });

  it('polls with refreshMs: the same run again that long after each settled run, a failure included, until stopped', async () => {
    const query = createQuery<string>();
    const { calls, loadFor } = manualLoad();
    query.start({ key: 'job', load: loadFor('job'), refreshMs: 3000 });
    expect(calls).toHaveLength(1);
    // No second run while the first is under way, however long it takes.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(1);
    calls[0].resolve('queued');
    await settle();
    await vi.advanceTimersByTimeAsync(2999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    expect(query.snapshot()).toMatchObject({ data: 'queued', loading: true, key: 'job' });
    calls[1].reject(new Error('réseau'));
    await settle();
    await vi.advanceTimersByTimeAsync(3000);
    expect(calls).toHaveLength(3);
    calls[2].resolve('running');
    await settle();
    expect(query.snapshot()).toMatchObject({ data: 'running', error: undefined, loading: false });

    query.stop();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls).toHaveLength(3);
  });

  it('polls no more for a run a newer key replaced, and the newer run polls on its own timer', async () => {
    const query = createQuery<string>();
    const { calls, loadFor } = manualLoad();
    query.start({ key: 'a', load: loadFor('a'), refreshMs: 1000 });
    query.start({ key: 'b', load: loadFor('b'), refreshMs: 1000 });
    calls[0].resolve('late a');
    await settle();
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls.map((call) => call.key)).toEqual(['a', 'b']);
    calls[1].resolve('b');
    await settle();
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls.map((call) => call.key)).toEqual(['a', 'b', 'b']);
    // A refresh (the bell opened) runs at once and restarts the pause from its own answer.
    query.refresh();
    expect(calls).toHaveLength(4);
    calls[3].resolve('b again');
    await settle();
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(5);
    query.stop();
  });

  it('starts and stops polling with setRefreshMs, without a run at once', async () => {
    const query = createQuery<string>();
    const { calls, loadFor } = manualLoad();
    query.start({ key: 'list', load: loadFor('list') });
    calls[0].resolve('pending');
    await settle();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(1);
    // Something waits (an upload, a pending project): the next read comes a pause from now, then after each answer.
    query.setRefreshMs(2000);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toHaveLength(2);
    // Set while a read is under way: that read, once settled, polls no more.
    query.setRefreshMs(0);
    calls[1].resolve('done');
    await settle();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(2);
    expect(query.snapshot()).toMatchObject({ data: 'done', loading: false });
    query.setRefreshMs(2000);
    query.setRefreshMs(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(2);
  });
});
