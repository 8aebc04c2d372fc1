import { z } from 'zod';
import { operationIds, type Operation, type OperationId, type OperationInput, type OperationOutput, type Contract } from './contract';
import { roleSchema } from './contract/entities';

/**
 * The one map of IPC channels between the renderer and the main process: request schema (validated by main on
 * every call) and response type. The preload, the Electron host and the web host are all derived from it.
 */

/** Every failure crossing IPC has this shape; `status` 0 means no HTTP answer (network, time-out, bad call). */
export const ipcFailureSchema = z.object({
  ok: z.literal(false),
  status: z.number().int(),
  errorMsg: z.string(),
  /** The form field a validation failure is about (dotted path, e.g. `name`), so the form shows it beside it. */
  field: z.string().optional(),
});
export type IpcFailure = z.infer<typeof ipcFailureSchema>;
export type IpcResult<T> = { ok: true; data: T } | IpcFailure;

/** Operations the renderer may not call through `api:call`: their answers carry tokens, which stay in main. */
export const SESSION_OPERATIONS = ['auth.signIn', 'auth.refresh'] as const satisfies readonly OperationId[];
export const rendererOperationIds = operationIds.filter(
  (id) => !(SESSION_OPERATIONS as readonly string[]).includes(id),
) as Exclude<OperationId, (typeof SESSION_OPERATIONS)[number]>[];
export type RendererOperationId = (typeof rendererOperationIds)[number];

/** What the renderer knows of the session: never a token. */
export const sessionInfoSchema = z.object({
  userId: z.number().int(),
  roles: z.array(roleSchema),
  /** End of the 1-day session. */
  expiresAt: z.string(),
  /** False when no keychain nor encryption exists: the session will not survive a restart. */
  persistent: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

export const settingsSchema = z.object({
  /** Team server; empty means the embedded server. */
  apiUrl: z.string().max(2048),
  environmentLabel: z.string().max(40),
  /** The two external tools of the top navigation (spec §2); their menu entries show once an address is set. */
  shortUrlServiceUrl: z.string().max(2048),
  appCreationToolUrl: z.string().max(2048),
});
export type Settings = z.infer<typeof settingsSchema>;

export const appInfoSchema = z.object({
  version: z.string(),
  apiUrl: z.string(),
  databaseKind: z.string(),
  host: z.enum(['electron', 'web']),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

/** The input of any operation, before the contract checks it: `OperationInput` of an operation not yet known. */
export type AnyOperationInput = OperationInput<Operation>;

/** The shape check of `api:call` inputs (main then checks them against the operation's own schemas). */
const apiInput = z
  .strictObject({
    params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    query: z.record(z.string(), z.unknown()).optional(),
    body: z.unknown().optional(),
  })
  .default({}) satisfies z.ZodType<AnyOperationInput>;

const csvRow = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));

export const ipcChannels = {
  /** Any contract operation but the session ones; main adds the bearer token and validates against the contract. */
  'api:call': {
    request: z.strictObject({ operation: z.enum(rendererOperationIds as [RendererOperationId, ...RendererOperationId[]]), input: apiInput }),
  },
  'session:signIn': {
    request: z.strictObject({ username: z.string().max(254), password: z.string().max(1024) }),
  },
  'session:get': { request: z.undefined().or(z.strictObject({})) },
  /** Re-reads the roles from the server (after an admin changed their own). */
  'session:refresh': { request: z.undefined().or(z.strictObject({})) },
  'session:signOut': { request: z.undefined().or(z.strictObject({})) },
  'settings:get': { request: z.undefined().or(z.strictObject({})) },
  'settings:set': { request: settingsSchema.partial().strict() },
  'app:info': { request: z.undefined().or(z.strictObject({})) },
  /** Native dialog (Electron) or browser picker (web): parse a CSV file in main. */
  'files:readCsv': {
    request: z.strictObject({
      /** Web host only: the file's bytes as base64, picked in the page. */
      contentBase64: z.string().max(200 * 1024 * 1024).optional(),
      fileName: z.string().max(255).optional(),
    }),
  },
  'files:saveCsv': {
    request: z.strictObject({ defaultName: z.string().min(1).max(255), rows: z.array(csvRow).max(1_000_000), columns: z.array(z.string()).optional() }),
  },
  'files:savePdf': {
    request: z.strictObject({ defaultName: z.string().min(1).max(255), contentBase64: z.string().max(200 * 1024 * 1024) }),
  },
} as const;

export type IpcChannel = keyof typeof ipcChannels;

export interface CsvReadResult {
  fileName: string;
  columns: string[];
  rows: Record<string, string>[];
  encoding: 'utf-8' | 'windows-1252';
  delimiter: ';' | ',';
}

export interface SavedFile {
  savedAs: string;
  downloadUrl?: string;
}

/** What each channel answers (always wrapped in IpcResult). */
export interface IpcResponses {
  'api:call': unknown;
  'session:signIn': SessionInfo;
  'session:get': SessionInfo | null;
  'session:refresh': SessionInfo | null;
  'session:signOut': { ok: true };
  'settings:get': Settings;
  'settings:set': Settings;
  'app:info': AppInfo;
  /** null when the user cancelled the dialog. */
  'files:readCsv': CsvReadResult | null;
  /**
   * The saved path (Electron), or on the web host the file name and a one-time URL the web bridge downloads;
   * null when the user cancelled.
   */
  'files:saveCsv': SavedFile | null;
  'files:savePdf': SavedFile | null;
}

export type IpcRequest<C extends IpcChannel> = z.input<(typeof ipcChannels)[C]['request']>;

/** Events pushed from main to the renderer. */
export const ipcEvents = {
  /** The server answered 401, or the refresh failed: the session is gone. */
  'session:expired': z.object({ reason: z.string() }),
  /** A deep link (backoffice://app/password/confirm?...) asks the renderer to open a route. */
  'navigate': z.object({ path: z.string() }),
} as const;
export type IpcEvent = keyof typeof ipcEvents;
export type IpcEventPayload<E extends IpcEvent> = z.infer<(typeof ipcEvents)[E]>;

/** The object the preload exposes as `window.backoffice` (and the web transport imitates). */
export interface BackofficeBridge {
  invoke<C extends IpcChannel>(channel: C, payload?: IpcRequest<C>): Promise<IpcResult<IpcResponses[C]>>;
  on<E extends IpcEvent>(event: E, callback: (payload: IpcEventPayload<E>) => void): () => void;
}

/** Typed helper for `api:call` results. */
export type ApiCallOutput<Id extends OperationId> = OperationOutput<Contract[Id]>;
