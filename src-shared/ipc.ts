import { z } from 'zod';
import { contract, operationIds, type Operation, type OperationId, type OperationInput } from './contract';
import { conflictSchema, roleSchema } from './contract/entities';
import { DRAFT_MAX_CHARS, DRAFT_RECORD_KEY, draftJsonSize, type StoredDraft } from './drafts';
import { jobEventSchema } from './jobs';
import { DESKTOP_MESSAGES } from './messages/desktop';

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
  /** A 409 for a stale version: who changed the record, when, and the record now (the editor shows theirs and yours). */
  conflict: conflictSchema.optional(),
});
export type IpcFailure = z.infer<typeof ipcFailureSchema>;
export type IpcResult<T> = { ok: true; data: T } | IpcFailure;

/** Operations the renderer may not call through `api:call`: their answers carry tokens, which stay in main. */
export const SESSION_OPERATIONS = ['auth.signIn', 'auth.refresh', 'setup.createAdmin'] as const satisfies readonly OperationId[];
export const rendererOperationIds = operationIds.filter((id) => !(SESSION_OPERATIONS as readonly string[]).includes(id)) as Exclude<
  OperationId,
  (typeof SESSION_OPERATIONS)[number]
>[];
export type RendererOperationId = (typeof rendererOperationIds)[number];

/** Operations that take a file (their contract entry has `multipart`): what 'files:upload' may name. */
export const uploadOperationIds = operationIds.filter((id) => Boolean((contract[id] as Operation).multipart));
export type UploadOperationId = (typeof uploadOperationIds)[number];

/** Largest file a page may hand over as bytes ('files:uploadBytes': an image the image editor cropped). */
export const PAGE_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
const PAGE_UPLOAD_MAX_BASE64 = Math.ceil(PAGE_UPLOAD_MAX_BYTES / 3) * 4;

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

/** The update channels: 'stable' reads latest.yml, 'beta' beta.yml (pre-releases, then each stable release). */
export const UPDATE_CHANNELS = ['stable', 'beta'] as const;

export const settingsSchema = z.object({
  /** Team server; empty means the embedded server. */
  apiUrl: z.string().max(2048),
  environmentLabel: z.string().max(40),
  /** The two external tools of the top navigation (spec §2); their menu entries show once an address is set. */
  shortUrlServiceUrl: z.string().max(2048),
  appCreationToolUrl: z.string().max(2048),
  /** The update feed (electron-updater, generic https or s3://bucket/path); empty: no automatic updates. */
  updateUrl: z.string().max(2048).default(''),
  updateChannel: z.enum(UPDATE_CHANNELS).default('stable'),
  /** Where crash reports are uploaded; empty: minidumps are only kept in the user data folder. */
  crashReportUrl: z.string().max(2048).default(''),
  /** The first start's choice: '' not made yet, 'local' this computer, 'team' the server of `apiUrl`. */
  workplace: z.enum(['', 'local', 'team']).default(''),
});
export type Settings = z.infer<typeof settingsSchema>;
export type UpdateChannel = Settings['updateChannel'];

export const appInfoSchema = z.object({
  version: z.string(),
  apiUrl: z.string(),
  databaseKind: z.string(),
  host: z.enum(['electron', 'web']),
  /** The embedded API runs the demo workspace: its passwords are public. */
  demo: z.boolean(),
  /** The settings file this start could not read was set aside under this name; the app runs on its defaults. */
  settingsSetAside: z.string().optional(),
  /**
   * Where the app works, when its host lets the user choose (the desktop app; the web host with
   * BACKOFFICE_CHOOSE_SERVER=1): 'pending' until the first start's choice. Absent: fixed at launch.
   */
  serverChoice: z.enum(['pending', 'team', 'local']).optional(),
  /** The settings a machine policy fixed, each with its value and where the lock comes from (About page, read-only). */
  lockedSettings: z.array(z.object({ key: z.string(), value: z.string(), source: z.string() })).optional(),
  /**
   * Updates as the About page says them: the feed ('' none) and channel in use, who checks ('app': the installed
   * desktop app; 'not-installed': a development run; 'browser': the web host, which never updates itself), and the
   * last check (ISO time and outcome) since this start.
   */
  updates: z
    .object({
      feed: z.string(),
      channel: z.enum(UPDATE_CHANNELS),
      checker: z.enum(['app', 'not-installed', 'browser']),
      lastCheck: z.object({ at: z.string(), outcome: z.enum(['disabled', 'up-to-date', 'restarting', 'later', 'failed']) }).optional(),
    })
    .optional(),
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

const draftRecordKey = z.string().max(141).regex(DRAFT_RECORD_KEY, DESKTOP_MESSAGES.draftRecordKey);

/** A draft as 'drafts:put' takes it: its four fields only, JSON, at most DRAFT_MAX_CHARS (src-shared/drafts.ts). */
const storedDraft = z
  .strictObject({
    values: z.unknown().refine((values) => values !== undefined && values !== null),
    version: z.number().int().min(0).nullable(),
    base: z.unknown().optional(),
    savedAt: z.iso.datetime(),
  })
  .refine((draft) => draftJsonSize(draft) <= DRAFT_MAX_CHARS, { message: DESKTOP_MESSAGES.draftTooLarge });

export const ipcChannels = {
  /** Any contract operation but the session ones; main adds the bearer token and validates against the contract. */
  'api:call': {
    request: z.strictObject({ operation: z.enum(rendererOperationIds as [RendererOperationId, ...RendererOperationId[]]), input: apiInput }),
  },
  'session:signIn': {
    request: z.strictObject({ username: z.string().max(254), password: z.string().max(1024) }),
  },
  'session:get': { request: z.undefined().or(z.strictObject({})) },
  /** First start: creates the administrator (main adds the setup token of this launch), then signs in as it. */
  'setup:createAdmin': {
    request: z.strictObject({ name: z.string().max(200), username: z.string().max(254), password: z.string().max(1024) }),
  },
  /** Re-reads the roles from the server (after an admin changed their own). */
  'session:refresh': { request: z.undefined().or(z.strictObject({})) },
  'session:signOut': { request: z.undefined().or(z.strictObject({})) },
  'settings:get': { request: z.undefined().or(z.strictObject({})) },
  'app:info': { request: z.undefined().or(z.strictObject({})) },
  /** The About page's diagnostics: versions, settings without secrets, the last log lines, and the log folder. */
  'app:diagnostics': { request: z.undefined().or(z.strictObject({})) },
  /**
   * The first start's choice, or « Changer de serveur »: main checks a team server's address against the server,
   * signs the session out, then works there (docs/desktop.md, "First start"). Answers the new app information.
   */
  'workplace:choose': {
    request: z.discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('local') }),
      z.strictObject({ kind: z.literal('team'), address: z.string().max(2048) }),
    ]),
  },
  /** « Ouvrir le dossier des journaux » (About page): the host opens its log folder in the system's file manager. */
  'app:openLogFolder': { request: z.undefined().or(z.strictObject({})) },
  /** An error an error boundary caught, written to the host's log with the screen's route. */
  'app:reportError': {
    request: z.strictObject({
      route: z.string().max(2048),
      message: z.string().max(4000),
      stack: z.string().max(16_000).optional(),
      componentStack: z.string().max(16_000).optional(),
    }),
  },
  /**
   * Exports everything a list operation answers to a CSV file: main asks where (save dialog; the web host offers
   * a download), pages through the API and writes the file as it goes, with 'files:progress' events under
   * `jobId` (chosen by the renderer, so that it can cancel). Rows never cross IPC. `columns` name the cells of a
   * paged list; an operation answering the file itself (targets.export) writes its own columns and takes none.
   */
  'files:exportCsv': {
    request: z
      .strictObject({
        jobId: z.uuid(),
        operation: z.enum(rendererOperationIds as [RendererOperationId, ...RendererOperationId[]]),
        input: apiInput,
        columns: z
          .array(z.strictObject({ key: z.string().min(1).max(200), header: z.string().max(200) }))
          .min(1)
          .max(200)
          .optional(),
        defaultName: z.string().min(1).max(255),
        maxRows: z.number().int().min(1).max(1_000_000).optional(),
      })
      .refine((request) => (request.columns === undefined) === Boolean((contract[request.operation] as Operation).answersFile), {
        message: 'columns: required for a list, refused for an operation answering its own file',
        path: ['columns'],
      }),
  },
  /**
   * Picks a CSV file for an import (open dialog; on the web host, a file the page uploaded first) and answers its
   * columns, first 25 rows and row count, with a handle naming it for 'files:importCsv'.
   */
  'files:previewCsv': { request: z.strictObject({ uploadId: z.string().max(100).optional() }) },
  /** Sends one column of the previewed file to an operation in chunks (body `{ [bodyField]: values }`). */
  'files:importCsv': {
    request: z.strictObject({
      jobId: z.uuid(),
      handle: z.uuid(),
      operation: z.enum(rendererOperationIds as [RendererOperationId, ...RendererOperationId[]]),
      params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
      column: z.string().min(1).max(200),
      bodyField: z.string().min(1).max(100),
      chunkSize: z.number().int().min(1).max(10_000).optional(),
      /** The values must be of this format: the others are reported with their row and not sent. */
      format: z.enum(['email']).optional(),
    }),
  },
  /**
   * Sends the previewed file's whole rows (every column) to a batch operation in chunks of `chunkSize` rows
   * (body `{ [bodyField]: rows, firstLine }`), with 'files:progress' events; a file longer than `maxRows` is
   * refused before anything is sent. With `chunkSize` ≥ `maxRows` the file goes in one call: one transaction.
   */
  'files:importCsvRows': {
    request: z.strictObject({
      jobId: z.uuid(),
      handle: z.uuid(),
      operation: z.enum(rendererOperationIds as [RendererOperationId, ...RendererOperationId[]]),
      bodyField: z.string().min(1).max(100),
      chunkSize: z.number().int().min(1).max(10_000),
      maxRows: z.number().int().min(1).max(100_000),
    }),
  },
  /**
   * Uploads one file to an upload operation: main opens the native dialog filtered to the operation's formats
   * (the web host takes the file the page sent first, `uploadId`), checks the fields, extension and size against
   * the contract, streams the file from disk with 'files:progress' events under `jobId` ('files:cancel' stops
   * it) and answers the server's reply.
   */
  'files:upload': {
    request: z.strictObject({
      jobId: z.uuid(),
      operation: z.enum(uploadOperationIds as [UploadOperationId, ...UploadOperationId[]]),
      params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
      fields: z.record(z.string().max(100), z.string().max(16 * 1024)).default({}),
      uploadId: z.string().max(100).optional(),
      /** No file to pick: an empty '.keep' makes a folder (spec §4, storage browser). */
      folderMarker: z.literal(true).optional(),
    }),
  },
  /**
   * Uploads bytes the page made (the image editor's cropped PNG or JPEG) to an upload operation: the same checks
   * as 'files:upload' (fields, extension, size: the operation's limit and at most PAGE_UPLOAD_MAX_BYTES), the same
   * progress events and cancel, without a file dialog.
   */
  'files:uploadBytes': {
    request: z.strictObject({
      jobId: z.uuid(),
      operation: z.enum(uploadOperationIds as [UploadOperationId, ...UploadOperationId[]]),
      params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
      fields: z.record(z.string().max(100), z.string().max(16 * 1024)).default({}),
      fileName: z.string().min(1).max(255),
      contentBase64: z.base64().max(PAGE_UPLOAD_MAX_BASE64),
    }),
  },
  /**
   * Imports the invoicing tool's quote export (docs/projects.md, Quotes): main opens the CSV dialog (the web host takes the
   * page's upload, `uploadId`), reads the file with 'files:progress' events under `jobId`, checks the contract's
   * limit and sends it to estimates.importFile (ADMIN). Answers the count of quotes and lines imported.
   */
  'files:importEstimates': { request: z.strictObject({ jobId: z.uuid(), uploadId: z.string().max(100).optional() }) },
  /** Stops an export, import or upload under way; its file is not kept. */
  'files:cancel': { request: z.strictObject({ jobId: z.uuid() }) },
  'files:savePdf': {
    request: z.strictObject({ defaultName: z.string().min(1).max(255), contentBase64: z.string().max(200 * 1024 * 1024) }),
  },
  /**
   * The local drafts of the signed-in user (desktop app: main's own store, src-main/services/drafts.ts). Main
   * takes the user from its own session, never from the page; the web host keeps drafts in the browser instead.
   */
  'drafts:list': { request: z.undefined().or(z.strictObject({})) },
  /** Keeps one record's draft (replacing the one before); refused over its size, when the store is full, or holding a token. */
  'drafts:put': { request: z.strictObject({ recordKey: draftRecordKey, draft: storedDraft }) },
  'drafts:remove': { request: z.strictObject({ recordKey: draftRecordKey }) },
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

/** A CSV file picked for an import: what the screen previews (never every row). */
export interface CsvPreviewInfo {
  handle: string;
  fileName: string;
  columns: string[];
  rows: Record<string, string>[];
  rowCount: number;
  encoding: 'utf-8' | 'windows-1252';
  delimiter: ';' | ',';
}

export interface CsvImportReport {
  rows: number;
  sent: number;
  refused: number;
  /** Rows not sent: blank, or not of the request's `format`. */
  invalid: number;
  /** By row as a spreadsheet numbers it (the header is row 1); the first 1,000. `value`: a row left out before sending ('' when blank). */
  errors: { line: number; message: string; value?: string }[];
  errorsTruncated: boolean;
  /** Each accepted chunk's answer (the operation's response), in order. */
  answers: unknown[];
}

/** What each channel answers (always wrapped in IpcResult). */
export interface IpcResponses {
  'api:call': unknown;
  'session:signIn': SessionInfo;
  'session:get': SessionInfo | null;
  'setup:createAdmin': SessionInfo;
  'session:refresh': SessionInfo | null;
  'session:signOut': { ok: true };
  'settings:get': Settings;
  'app:info': AppInfo;
  /** `logDir` is '' where the host writes no log file (the text says where its logs go). */
  'app:diagnostics': { logDir: string; text: string };
  'app:reportError': { logged: boolean };
  'app:openLogFolder': { folder: string };
  'workplace:choose': AppInfo;
  /**
   * The saved path (Electron), or on the web host the file name and a one-time URL the web bridge downloads;
   * null when the user cancelled the dialog.
   */
  'files:exportCsv': (SavedFile & { rows: number }) | null;
  /** null when the user cancelled the dialog. */
  'files:previewCsv': CsvPreviewInfo | null;
  'files:importCsv': CsvImportReport;
  /** Each chunk's answer (the operation's own report), in order. */
  'files:importCsvRows': { rows: number; answers: unknown[]; refused: { line: number; message: string } | null };
  /** The server's answer (checked against the operation's response schema); null when the dialog was cancelled. */
  'files:upload': { fileName: string; answer: unknown } | null;
  'files:uploadBytes': { fileName: string; answer: unknown };
  /** The file's name and the server's counts; null when the dialog was cancelled. */
  'files:importEstimates': { fileName: string; quotes: number; lines: number } | null;
  'files:cancel': { cancelled: boolean };
  'files:savePdf': SavedFile | null;
  /** The user main's session names, and their drafts by record key. */
  'drafts:list': { userId: number; drafts: Record<string, StoredDraft> };
  'drafts:put': { kept: true };
  'drafts:remove': { removed: boolean };
}

export type IpcRequest<C extends IpcChannel> = z.input<(typeof ipcChannels)[C]['request']>;

/** Events pushed from main to the renderer. */
export const ipcEvents = {
  /** The server answered 401, or the refresh failed: the session is gone. */
  'session:expired': z.object({ reason: z.string() }),
  /** A deep link (backoffice://app/password/confirm?...) asks the renderer to open a route. */
  navigate: z.object({ path: z.string() }),
  /** How far an export or import has gone, in rows (CSV records: a cell's line break is no row); `total` when known. */
  'files:progress': z.object({ jobId: z.string(), done: z.number().int(), total: z.number().int().nullable() }),
  /** Progress of a long server job the signed-in user may see (push campaign, CSV import), relayed from the server. */
  'job-event': jobEventSchema,
} as const;
export type IpcEvent = keyof typeof ipcEvents;
export type IpcEventPayload<E extends IpcEvent> = z.infer<(typeof ipcEvents)[E]>;

/** The object the preload exposes as `window.backoffice` (and the web transport imitates). */
export interface BackofficeBridge {
  invoke<C extends IpcChannel>(channel: C, payload?: IpcRequest<C>): Promise<IpcResult<IpcResponses[C]>>;
  on<E extends IpcEvent>(event: E, callback: (payload: IpcEventPayload<E>) => void): () => void;
}
