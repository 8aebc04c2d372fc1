import { describe, expect, it } from 'vitest';
import type { BackofficeBridge, IpcChannel } from '@shared/ipc';
import { apiOver, type CallApi } from '../../src-renderer/bridge/api';

/**
 * Compile-time checks (run by `npm run typecheck`, the first step of `npm test`): each `@ts-expect-error` must
 * meet an error, else the typecheck fails. With an untyped input (the old `ApiInput`) none of them would.
 */
export function typeChecks(callApi: CallApi) {
  // Well typed: compiles.
  void callApi('admin.accounts.update', { params: { accountId: 1 }, body: { name: 'A', nickname: 'B', username: 'a@b.fr' } });
  void callApi('admin.accounts.list', { query: { limit: 10, skip: 0, term: 'x' } });
  // @ts-expect-error misspelt body field
  void callApi('admin.accounts.update', { params: { accountId: 1 }, body: { nmae: 'A', nickname: 'B', username: 'a@b.fr' } });
  // @ts-expect-error wrong type of a body field
  void callApi('admin.accounts.setRoles', { params: { accountId: 1 }, body: { roles: ['NOT_A_ROLE'] } });
  // @ts-expect-error wrong type of a path param
  void callApi('admin.accounts.delete', { params: { accountId: { id: 1 } } });
  // @ts-expect-error misspelt query field
  void callApi('admin.accounts.list', { query: { limt: 10 } });
  // @ts-expect-error unknown operation
  void callApi('admin.accounts.drop', {});
  // @ts-expect-error session operations never reach the renderer (their answers carry tokens)
  void callApi('auth.signIn', { body: { username: 'a@b.fr', password: 'x' } });
  return async () => {
    const answer = await callApi('admin.accounts.list', { query: {} });
    // @ts-expect-error the answer is typed from the response schema: items, not rows
    if (answer.ok) void answer.data.rows;
    if (answer.ok) void answer.data.items[0]?.username.toLowerCase();
  };
}

describe('callApi', () => {
  it("sends the operation and its input on the 'api:call' channel, and hands back the bridge's answer", async () => {
    const calls: [IpcChannel, unknown][] = [];
    const bridge = {
      invoke: async (channel: IpcChannel, payload?: unknown) => {
        calls.push([channel, payload]);
        return { ok: true, data: { items: [], total: 0 } };
      },
      on: () => () => undefined,
    } as unknown as BackofficeBridge;
    const callApi = apiOver(bridge);
    expect(await callApi('admin.accounts.list', { query: { skip: 0 } })).toEqual({ ok: true, data: { items: [], total: 0 } });
    await callApi('admin.roles');
    expect(calls).toEqual([
      ['api:call', { operation: 'admin.accounts.list', input: { query: { skip: 0 } } }],
      ['api:call', { operation: 'admin.roles', input: {} }],
    ]);
  });
});
