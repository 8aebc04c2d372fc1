import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import type { BackofficeBridge, IpcChannel, IpcResult } from '@shared/ipc';
import { EXPORT_MESSAGES } from '@shared/messages';
import { bridgeAtom } from '../../src-renderer/lib/bridge';
import { cancelFileJobAtom, exportCsvAtom, fileJobsAtom, fileProgressAtom } from '../../src-renderer/lib/file-jobs';
import { pendingNoticesAtom } from '../../src-renderer/lib/notices';

/** A bridge whose 'files:exportCsv' waits for the test to finish it; records every call. */
function exportBridge() {
  const calls: { channel: IpcChannel; payload: any }[] = [];
  let finish: (result: IpcResult<unknown>) => void = () => undefined;
  const bridge: BackofficeBridge = {
    invoke: ((channel: IpcChannel, payload?: unknown) => {
      calls.push({ channel, payload });
      if (channel === 'files:exportCsv') return new Promise<IpcResult<unknown>>((resolve) => (finish = resolve));
      return Promise.resolve({ ok: true, data: { cancelled: true } });
    }) as BackofficeBridge['invoke'],
    on: () => () => undefined,
  };
  return { bridge, calls, finish: (result: IpcResult<unknown>) => finish(result) };
}

const request = {
  operation: 'admin.accounts.list' as const,
  input: { query: {} },
  columns: [{ key: 'username', header: 'E-mail' }],
  defaultName: 'comptes.csv',
};

describe('file jobs (exports through main)', () => {
  it('shows the job with its progress while it runs, then a success notice, and forgets it', async () => {
    const store = createStore();
    const fake = exportBridge();
    store.set(bridgeAtom, fake.bridge);
    const running = store.set(exportCsvAtom, request);
    const [job] = store.get(fileJobsAtom);
    expect(job).toMatchObject({ kind: 'export', done: 0, total: null });
    expect(fake.calls[0]).toMatchObject({ channel: 'files:exportCsv', payload: { ...request, jobId: job.id } });

    store.set(fileProgressAtom, { jobId: job.id, done: 500, total: 2101 });
    store.set(fileProgressAtom, { jobId: 'another-job', done: 9, total: 9 });
    expect(store.get(fileJobsAtom)[0]).toMatchObject({ done: 500, total: 2101 });

    fake.finish({ ok: true, data: { savedAs: '/home/claire/comptes.csv', rows: 2101 } });
    expect(await running).toEqual({ savedAs: '/home/claire/comptes.csv', rows: 2101 });
    expect(store.get(fileJobsAtom)).toEqual([]);
    expect(store.get(pendingNoticesAtom)).toEqual([
      { text: EXPORT_MESSAGES.exported(2101, '/home/claire/comptes.csv'), kind: 'success', durationMs: 3000 },
    ]);
  });

  it('cancels through main, and says so as information, not as an error', async () => {
    const store = createStore();
    const fake = exportBridge();
    store.set(bridgeAtom, fake.bridge);
    const running = store.set(exportCsvAtom, request);
    const [job] = store.get(fileJobsAtom);
    await store.set(cancelFileJobAtom, job.id);
    expect(store.get(fileJobsAtom)[0].cancelling).toBe(true);
    expect(fake.calls.at(-1)).toEqual({ channel: 'files:cancel', payload: { jobId: job.id } });
    fake.finish({ ok: false, status: 0, errorMsg: EXPORT_MESSAGES.cancelled });
    expect(await running).toBeNull();
    expect(store.get(pendingNoticesAtom)).toEqual([{ text: EXPORT_MESSAGES.cancelled, kind: 'info', durationMs: 3000 }]);
  });

  it("shows the server's refusal as an error, and a cancelled dialog as nothing", async () => {
    const store = createStore();
    const fake = exportBridge();
    store.set(bridgeAtom, fake.bridge);
    const refused = store.set(exportCsvAtom, request);
    fake.finish({ ok: false, status: 403, errorMsg: 'User not allowed' });
    expect(await refused).toBeNull();
    const dialogClosed = store.set(exportCsvAtom, request);
    fake.finish({ ok: true, data: null });
    expect(await dialogClosed).toBeNull();
    expect(store.get(pendingNoticesAtom)).toEqual([{ text: 'User not allowed', kind: 'error', durationMs: 3000 }]);
    expect(store.get(fileJobsAtom)).toEqual([]);
  });
});
