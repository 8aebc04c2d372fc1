import type { ipcChannels, IpcChannel, IpcResponses, IpcResult } from '@shared/ipc';

/** A channel's payload as its schema parses it. */
export type Parsed<C extends IpcChannel> = (typeof ipcChannels)[C]['request'] extends { _zod: { output: infer O } } ? O : never;

/** One handler per IPC channel (src-shared/ipc.ts), answering its response type; handlers.ts and drafts.ts implement them. */
export type IpcHandlers = { [C in IpcChannel]: (payload: Parsed<C>) => Promise<IpcResult<IpcResponses[C]>> };
