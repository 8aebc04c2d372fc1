import type { ApiCallOutput, IpcResult, RendererOperationId } from '@shared/ipc';
import { getBridge } from './index';

export interface ApiInput {
  params?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** Calls one contract operation through main (which adds the token and validates). */
export async function callApi<Id extends RendererOperationId>(operation: Id, input: ApiInput = {}): Promise<IpcResult<ApiCallOutput<Id>>> {
  return (await getBridge().invoke('api:call', { operation, input })) as IpcResult<ApiCallOutput<Id>>;
}
