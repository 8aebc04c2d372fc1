import { atom, useAtomValue, useSetAtom, useStore } from 'jotai';
import { useEffect } from 'react';
import type { IpcEventPayload, IpcRequest, IpcResponses, SavedFile } from '@shared/ipc';
import { EXPORT_MESSAGES, IMPORT_MESSAGES, notice } from '@shared/messages';
import { bridgeAtom } from './bridge';
import { raiseNoticeAtom } from './notices';

/** An export or import under way in main, as the panel shows it. */
export interface FileJob {
  id: string;
  kind: 'export' | 'import';
  label: string;
  /** Rows exported or imported so far (main counts CSV records, never lines). */
  done: number;
  /** Rows in all, when known. */
  total: number | null;
  cancelling: boolean;
}

export const fileJobsAtom = atom<FileJob[]>([]);
fileJobsAtom.debugLabel = 'lib.fileJobs';

const updateJob = (jobs: FileJob[], id: string, change: Partial<FileJob>) => jobs.map((job) => (job.id === id ? { ...job, ...change } : job));

/** A 'files:progress' event: the job's count moves on. */
export const fileProgressAtom = atom(null, (get, set, progress: IpcEventPayload<'files:progress'>) => {
  set(fileJobsAtom, updateJob(get(fileJobsAtom), progress.jobId, { done: progress.done, total: progress.total }));
});
fileProgressAtom.debugLabel = 'lib.fileProgress';

export type ExportRequest = Omit<IpcRequest<'files:exportCsv'>, 'jobId'>;

/**
 * Exports a list operation's answer to CSV through main (rows never cross IPC). Resolves with the saved file, or
 * null when the user cancelled the dialog or the export; a failure is raised as an error notice.
 */
export const exportCsvAtom = atom(
  null,
  async (get, set, request: ExportRequest & { label?: string }): Promise<(SavedFile & { rows: number }) | null> => {
    const id = crypto.randomUUID();
    const { label, ...payload } = request;
    set(fileJobsAtom, [
      ...get(fileJobsAtom),
      { id, kind: 'export', label: label ?? EXPORT_MESSAGES.exporting, done: 0, total: null, cancelling: false },
    ]);
    try {
      const result = await get(bridgeAtom).invoke('files:exportCsv', { ...payload, jobId: id });
      if (!result.ok) {
        set(raiseNoticeAtom, notice(result.errorMsg, result.errorMsg === EXPORT_MESSAGES.cancelled ? 'info' : 'error'));
        return null;
      }
      if (result.data) set(raiseNoticeAtom, notice(EXPORT_MESSAGES.exported(result.data.rows, result.data.savedAs), 'success'));
      return result.data;
    } finally {
      set(
        fileJobsAtom,
        get(fileJobsAtom).filter((job) => job.id !== id),
      );
    }
  },
);
exportCsvAtom.debugLabel = 'lib.exportCsv';

type ImportChannel = 'files:importCsv' | 'files:importCsvRows';

/** An import through main as a file job (progress, cancel): a failure becomes a notice and answers null. */
function importJobAtom<C extends ImportChannel>(channel: C, debugLabel: string) {
  const job = atom(null, async (get, set, request: Omit<IpcRequest<C>, 'jobId'> & { label: string }): Promise<IpcResponses[C] | null> => {
    const id = crypto.randomUUID();
    const { label, ...payload } = request;
    set(fileJobsAtom, [...get(fileJobsAtom), { id, kind: 'import', label, done: 0, total: null, cancelling: false }]);
    try {
      const result = await get(bridgeAtom).invoke(channel, { ...payload, jobId: id } as unknown as IpcRequest<C>);
      if (!result.ok) {
        set(raiseNoticeAtom, notice(result.errorMsg, result.errorMsg === IMPORT_MESSAGES.cancelled ? 'info' : 'error'));
        return null;
      }
      return result.data as IpcResponses[C];
    } finally {
      set(
        fileJobsAtom,
        get(fileJobsAtom).filter((entry) => entry.id !== id),
      );
    }
  });
  job.debugLabel = debugLabel;
  return job;
}

/** Sends a previewed file's column to an operation in chunks; the report lists the rows refused. */
export const importCsvAtom = importJobAtom('files:importCsv', 'lib.importCsv');

/** Sends a previewed file's whole rows to a batch operation in chunks, with progress; answers each chunk's answer. */
export const importCsvRowsAtom = importJobAtom('files:importCsvRows', 'lib.importCsvRows');

export const cancelFileJobAtom = atom(null, async (get, set, id: string) => {
  set(fileJobsAtom, updateJob(get(fileJobsAtom), id, { cancelling: true }));
  await get(bridgeAtom).invoke('files:cancel', { jobId: id });
});
cancelFileJobAtom.debugLabel = 'lib.cancelFileJob';

/** Follows main's progress events for the store's jobs. Mounted once, in the shell. */
export function useFileProgressEvents(): void {
  const store = useStore();
  const bridge = useAtomValue(bridgeAtom);
  useEffect(() => bridge.on('files:progress', (progress) => store.set(fileProgressAtom, progress)), [bridge, store]);
}

function percent(job: FileJob): number | undefined {
  return job.total ? Math.min(100, Math.round((job.done / job.total) * 100)) : undefined;
}

/** Exports and imports under way: what, how far (a bar when the total is known), and a way to stop them. */
export function FileJobsPanel() {
  useFileProgressEvents();
  const jobs = useAtomValue(fileJobsAtom);
  const cancel = useSetAtom(cancelFileJobAtom);
  if (jobs.length === 0) return null;
  return (
    <aside className="file-jobs" aria-label="Transferts en cours" data-testid="file-jobs">
      {jobs.map((job) => (
        <div key={job.id} className="file-job" data-testid={`file-job-${job.kind}`}>
          <span className="file-job-label">{job.label}</span>
          <progress max={100} value={percent(job)} aria-label={job.label} />
          <span className="file-job-count" data-testid="file-job-count">
            {job.done.toLocaleString('fr-FR')}
            {job.total !== null ? ` / ${job.total.toLocaleString('fr-FR')}` : ''}
          </span>
          <button type="button" className="link" disabled={job.cancelling} onClick={() => void cancel(job.id)} data-testid="file-job-cancel">
            Annuler
          </button>
        </div>
      ))}
    </aside>
  );
}
