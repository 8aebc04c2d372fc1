import type { BackofficeBridge, IpcChannel, IpcResult, RendererOperationId } from '@shared/ipc';

export interface ApiCall {
  operation: RendererOperationId;
  input: { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
}

/**
 * An in-memory BackofficeBridge for atom tests: each 'api:call' waits for the test to answer it, so a test
 * decides the order answers arrive in. (The e2e tests use the real bridge, host and server.)
 */
export function createFakeBridge() {
  const pending: { call: ApiCall; resolve: (result: IpcResult<unknown>) => void }[] = [];
  const calls: ApiCall[] = [];
  const bridge: BackofficeBridge = {
    invoke: ((channel: IpcChannel, payload?: unknown) => {
      if (channel !== 'api:call') return Promise.resolve({ ok: true, data: null });
      const call = payload as ApiCall;
      calls.push(call);
      return new Promise<IpcResult<unknown>>((resolve) => pending.push({ call, resolve }));
    }) as BackofficeBridge['invoke'],
    on: () => () => undefined,
  };
  return {
    bridge,
    calls,
    /** Answers the `index`-th call still waiting (0: the oldest). */
    async answer(index: number, result: IpcResult<unknown>) {
      const [waiting] = pending.splice(index, 1);
      if (!waiting) throw new Error(`no call waiting at ${index}`);
      waiting.resolve(result);
      // Let the atom's continuation run.
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
    get waiting() {
      return pending.length;
    },
  };
}
