import { ipcChannels, type AppInfo, type CsvReadResult, type IpcChannel, type IpcRequest, type IpcResponses, type IpcResult, type SavedFile } from '@shared/ipc';
import { MESSAGES } from '@shared/messages';
import type { ApiClient } from '../services/api-client';
import { invalidCallFailure, thrownFailure } from '../services/failures';
import { toCsv } from '../services/files';
import type { SettingsStore } from '../services/settings';

/** How a host reaches the user's files: native dialogs in Electron, the page's pickers and downloads on the web. */
export interface HostFiles {
  readCsv(request: IpcRequest<'files:readCsv'>): Promise<CsvReadResult | null>;
  saveCsv(defaultName: string, content: string): Promise<SavedFile | null>;
  savePdf(defaultName: string, bytes: Uint8Array): Promise<SavedFile | null>;
}

export interface IpcDependencies {
  api: ApiClient;
  settings: SettingsStore;
  files: HostFiles;
  appInfo: () => AppInfo | Promise<AppInfo>;
}

type Parsed<C extends IpcChannel> = (typeof ipcChannels)[C]['request'] extends { _zod: { output: infer O } } ? O : never;
export type IpcHandlers = { [C in IpcChannel]: (payload: Parsed<C>) => Promise<IpcResult<IpcResponses[C]>> };

const ok = <T>(data: T): IpcResult<T> => ({ ok: true, data });

/** One handler per channel; every API operation goes through the single generic 'api:call'. */
export function createIpcHandlers(deps: IpcDependencies): IpcHandlers {
  const { api, settings, files } = deps;
  return {
    'api:call': async ({ operation, input }) => api.call(operation, input),
    'session:signIn': async ({ username, password }) => api.signIn(username, password),
    'session:get': async () => ok(await api.sessionInfo()),
    'session:refresh': async () => api.reloadSession(),
    'session:signOut': async () => {
      await api.signOut();
      return ok({ ok: true as const });
    },
    'settings:get': async () => ok(settings.get()),
    'settings:set': async (patch) => ok(settings.set(patch)),
    'app:info': async () => ok(await deps.appInfo()),
    'files:readCsv': async (request) => ok(await files.readCsv(request)),
    'files:saveCsv': async ({ defaultName, rows, columns }) => ok(await files.saveCsv(defaultName, toCsv(rows, columns))),
    'files:savePdf': async ({ defaultName, contentBase64 }) => ok(await files.savePdf(defaultName, Buffer.from(contentBase64, 'base64'))),
  };
}

function isChannel(value: unknown): value is IpcChannel {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ipcChannels, value);
}

/**
 * Validates an incoming call against the channel map and runs its handler. Whatever the renderer sends, the
 * answer is an IpcResult: never a throw across the boundary, never a crash of main.
 */
export async function dispatchIpc(handlers: IpcHandlers, channel: unknown, payload: unknown): Promise<IpcResult<unknown>> {
  if (!isChannel(channel)) return { ok: false, status: 0, errorMsg: `${MESSAGES.invalidIpcCall} : ${MESSAGES.unknownChannel}` };
  const parsed = ipcChannels[channel].request.safeParse(payload);
  if (!parsed.success) return invalidCallFailure(parsed.error.issues);
  try {
    const handler = handlers[channel] as (payload: unknown) => Promise<IpcResult<unknown>>;
    return await handler(parsed.data);
  } catch (error) {
    return thrownFailure(error);
  }
}
