import type { Contract, OperationInput, OperationOutput } from '@shared/contract';
import type { BackofficeBridge, IpcRequest, IpcResult, RendererOperationId } from '@shared/ipc';

/** What an operation takes (path params, query, body), typed from the contract: a misspelt field does not compile. */
export type ApiInput<Id extends RendererOperationId> = OperationInput<Contract[Id]>;
/** What an operation answers on success, typed from the contract's response schema. */
export type ApiOutput<Id extends RendererOperationId> = OperationOutput<Contract[Id]>;

export type CallApi = <Id extends RendererOperationId>(operation: Id, input?: ApiInput<Id>) => Promise<IpcResult<ApiOutput<Id>>>;

/**
 * Calls contract operations through `bridge` (main adds the token and checks the input against the contract).
 * Atoms take it from the store (lib/bridge.ts), so tests give a store an in-memory bridge.
 */
export function apiOver(bridge: BackofficeBridge): CallApi {
  return async (operation, input) => {
    const payload = { operation, input: input ?? {} } as IpcRequest<'api:call'>;
    return (await bridge.invoke('api:call', payload)) as IpcResult<ApiOutput<typeof operation>>;
  };
}
