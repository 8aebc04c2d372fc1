import {
  ipcChannels,
  type AppInfo,
  type IpcChannel,
  type IpcEvent,
  type IpcEventPayload,
  type IpcFailure,
  type IpcResponses,
  type IpcResult,
} from '@shared/ipc';
import { EXPORT_MESSAGES, IMPORT_MESSAGES, MESSAGES, SETUP_MESSAGES, WORKPLACE_MESSAGES } from '@shared/messages';
import type { ApiClient } from '../services/api-client';
import type { DraftStore } from '../services/drafts';
import { ExportFailedError, answersFile, downloadCsvFile, exportToCsvFile, pagingPart } from '../services/csv-export';
import { CsvImports } from '../services/csv-import';
import { importEstimateFile } from '../services/estimate-import';
import { invalidCallFailure, thrownFailure } from '../services/failures';
import type { HostFiles } from '../services/host-files';
import type { SettingsStore } from '../services/settings';
import { uploadBytesThroughApi, uploadThroughApi } from '../services/upload-job';
import { chooseWorkplace, type WorkplaceOptions } from '../services/workplace';
import { draftHandlers } from './drafts';
import type { IpcHandlers, Parsed } from './handler-types';

export type { IpcHandlers };

export interface IpcDependencies {
  api: ApiClient;
  settings: SettingsStore;
  files: HostFiles;
  appInfo: () => AppInfo | Promise<AppInfo>;
  /** Pushes an event to the renderer (progress of exports and imports). */
  emit?: <E extends IpcEvent>(event: E, payload: IpcEventPayload<E>) => void;
  /** The setup token this launch gave its embedded server (first start); absent with a team server. */
  setupToken?: string;
  /** The About page's diagnostics (services/diagnostics.ts). */
  diagnostics?: () => Promise<IpcResponses['app:diagnostics']>;
  /** Writes an error the renderer's boundaries caught to the host's log. */
  reportError?: (report: RendererErrorReport) => void;
  /** The desktop app's local drafts (electron-store 'drafts'); absent on the web host, whose drafts stay in the browser. */
  drafts?: DraftStore;
  /** The host's log folder ('' or absent: it writes none) and how it opens a folder ('' when opened, else why not). */
  logDir?: string | null;
  openFolder?: (folder: string) => Promise<string>;
  /** Where the app works (services/workplace.ts); absent where the host fixes it at launch. */
  workplace?: WorkplaceOptions;
}

/** What 'app:reportError' carries, as validated. */
export type RendererErrorReport = Parsed<'app:reportError'>;

const ok = <T>(data: T): IpcResult<T> => ({ ok: true, data });
const failed = (errorMsg: string): IpcFailure => ({ ok: false, status: 0, errorMsg });

/** One handler per channel; every API operation goes through the single generic 'api:call'. */
/** Exports, imports and uploads under way, by the renderer's job id, so that 'files:cancel' can stop them. */
function fileJobs(emit: NonNullable<IpcDependencies['emit']>) {
  const jobs = new Map<string, AbortController>();
  const startJob = (jobId: string) => {
    jobs.get(jobId)?.abort();
    const controller = new AbortController();
    jobs.set(jobId, controller);
    return controller;
  };
  const endJob = (jobId: string) => jobs.delete(jobId);
  return {
    startJob,
    endJob,
    /** A cancellable job: its controller while `work` runs, forgotten after. */
    runJob: async <T>(jobId: string, work: (controller: AbortController) => Promise<T>): Promise<T> => {
      const controller = startJob(jobId);
      try {
        return await work(controller);
      } finally {
        endJob(jobId);
      }
    },
    cancelJob: (jobId: string) => {
      const job = jobs.get(jobId);
      job?.abort();
      return Boolean(job);
    },
    progressOf: (jobId: string) => (progress: { done: number; total: number | null }) => emit('files:progress', { jobId, ...progress }),
  };
}

export function createIpcHandlers(deps: IpcDependencies): IpcHandlers {
  const { api, settings, files } = deps;
  const emit = deps.emit ?? (() => undefined);
  const imports = new CsvImports();
  const { startJob, runJob, endJob, cancelJob, progressOf } = fileJobs(emit);
  /** An import of a previewed file as a cancellable job: the file is forgotten once sent, a cancel answers its message. */
  const importJob = async <T>(
    jobId: string,
    handle: string,
    work: (options: { signal: AbortSignal; onProgress: (progress: { done: number; total: number | null }) => void }) => Promise<T>,
  ) => {
    const controller = startJob(jobId);
    try {
      const report = await work({ signal: controller.signal, onProgress: progressOf(jobId) });
      await imports.forget(handle);
      return ok(report);
    } catch (error) {
      if (controller.signal.aborted) return failed(IMPORT_MESSAGES.cancelled);
      throw error;
    } finally {
      endJob(jobId);
    }
  };
  return {
    'api:call': async ({ operation, input }) => api.call(operation, input),
    'session:signIn': async ({ username, password }) => api.signIn(username, password),
    'setup:createAdmin': async (fields) => {
      if (!deps.setupToken) return { ok: false, status: 404, errorMsg: SETUP_MESSAGES.unavailable };
      const created = await api.call('setup.createAdmin', { body: { ...fields, setupToken: deps.setupToken } });
      if (!created.ok) return created;
      return api.signIn(fields.username.trim(), fields.password);
    },
    'session:get': async () => ok(await api.sessionInfo()),
    'session:refresh': async () => api.reloadSession(),
    'session:signOut': async () => {
      await api.signOut();
      return ok({ ok: true as const });
    },
    'settings:get': async () => ok(settings.get()),
    'app:info': async () => ok(await deps.appInfo()),
    'app:diagnostics': async () => (deps.diagnostics ? ok(await deps.diagnostics()) : failed(MESSAGES.genericError)),
    'app:reportError': async (report) => {
      deps.reportError?.(report);
      return ok({ logged: Boolean(deps.reportError) });
    },
    'workplace:choose': async (request) => {
      if (!deps.workplace) return failed(WORKPLACE_MESSAGES.switchUnavailable);
      const outcome = await chooseWorkplace(request, { settings, signOut: () => api.signOut(), options: deps.workplace });
      if (!outcome.ok) return { ...failed(outcome.message), ...(outcome.field ? { field: outcome.field } : {}) };
      return ok(await deps.appInfo());
    },
    'app:openLogFolder': async () => {
      const folder = deps.logDir ?? '';
      if (!folder) return failed(WORKPLACE_MESSAGES.noLogFolder);
      const problem = deps.openFolder ? await deps.openFolder(folder) : 'no opener';
      return problem ? failed(WORKPLACE_MESSAGES.openLogsFailed(folder)) : ok({ folder });
    },
    'files:exportCsv': async ({ jobId, operation, input, columns, defaultName, maxRows }) => {
      if (!pagingPart(operation) && !answersFile(operation)) return failed(EXPORT_MESSAGES.notAList);
      const destination = await files.exportDestination(defaultName);
      if (!destination) return ok(null);
      const controller = startJob(jobId);
      try {
        // An operation answering the file itself (targets.export) is saved as it streams; a list is paged, with the
        // columns its schema required.
        const { rows } = answersFile(operation)
          ? await downloadCsvFile(
              (id, openInput, signal) => api.open(id, openInput as never, signal),
              { operation, input: (maxRows ? { ...input, body: { ...(input.body as object), limit: maxRows } } : input) as never },
              destination.path,
              { signal: controller.signal, onProgress: progressOf(jobId) },
            )
          : await exportToCsvFile(
              (id, callInput) => api.call(id, callInput as never),
              { operation, input: input as never, columns: columns!, maxRows },
              destination.path,
              {
                signal: controller.signal,
                onProgress: progressOf(jobId),
              },
            );
        return ok({ ...destination.finish(), rows });
      } catch (error) {
        destination.abandon();
        if (error instanceof ExportFailedError) return error.failure;
        if (controller.signal.aborted) return failed(EXPORT_MESSAGES.cancelled);
        throw error;
      } finally {
        endJob(jobId);
      }
    },
    'files:previewCsv': async (request) => {
      const picked = await files.pickCsv(request);
      if (!picked) return ok(null);
      return ok(await imports.preview(picked.path, { temporary: picked.temporary, fileName: picked.fileName }));
    },
    'files:importCsv': async ({ jobId, handle, operation, params, column, bodyField, chunkSize, format }) =>
      importJob(jobId, handle, (options) =>
        imports.importColumn(
          handle,
          { column, chunkSize, format },
          (values) => api.call(operation, { params, body: { [bodyField]: values } } as never),
          options,
        ),
      ),
    'files:importCsvRows': async ({ jobId, handle, operation, bodyField, chunkSize, maxRows }) =>
      importJob(jobId, handle, (options) =>
        imports.importRows(
          handle,
          { chunkSize, maxRows },
          (rows, firstLine) => api.call(operation, { body: { [bodyField]: rows, firstLine } } as never),
          options,
        ),
      ),
    'files:upload': async ({ jobId, operation, params, fields, uploadId, folderMarker }) =>
      runJob(jobId, (controller) =>
        uploadThroughApi(
          api,
          files,
          { operation, params, fields, uploadId, folderMarker },
          { signal: controller.signal, onProgress: progressOf(jobId) },
        ),
      ),
    'files:uploadBytes': async ({ jobId, operation, params, fields, fileName, contentBase64 }) =>
      runJob(jobId, (controller) =>
        uploadBytesThroughApi(
          api,
          { operation, params, fields, fileName, bytes: Buffer.from(contentBase64, 'base64') },
          { signal: controller.signal, onProgress: progressOf(jobId) },
        ),
      ),
    'files:importEstimates': async ({ jobId, uploadId }) => {
      const controller = startJob(jobId);
      try {
        return await importEstimateFile(api, files, { uploadId }, { signal: controller.signal, onProgress: progressOf(jobId) });
      } catch (error) {
        if (controller.signal.aborted) return failed(IMPORT_MESSAGES.cancelled);
        throw error;
      } finally {
        endJob(jobId);
      }
    },
    'files:cancel': async ({ jobId }) => ok({ cancelled: cancelJob(jobId) }),
    'files:savePdf': async ({ defaultName, contentBase64 }) => ok(await files.savePdf(defaultName, Buffer.from(contentBase64, 'base64'))),
    ...draftHandlers(deps.drafts, () => api.account()),
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
