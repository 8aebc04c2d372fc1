import { atom, useAtomValue, useSetAtom, useStore } from 'jotai';
import { useEffect } from 'react';
import type { IpcRequest, IpcResult, IpcResponses } from '@shared/ipc';
import { bridgeAtom } from './bridge';

/**
 * Uploads through main ('files:upload'), shared by every screen that sends a file (storage browser now, advert
 * and story editors later): one job per file with its progress and a way to cancel it.
 */
export interface UploadJob {
  id: string;
  label: string;
  done: number;
  total: number | null;
  cancelling: boolean;
}

export const uploadsAtom = atom<UploadJob[]>([]);
uploadsAtom.debugLabel = 'lib.uploads';

const update = (jobs: UploadJob[], id: string, change: Partial<UploadJob>) => jobs.map((job) => (job.id === id ? { ...job, ...change } : job));

export const uploadProgressAtom = atom(null, (get, set, progress: { jobId: string; done: number; total: number | null }) => {
  if (!get(uploadsAtom).some((job) => job.id === progress.jobId)) return;
  set(uploadsAtom, update(get(uploadsAtom), progress.jobId, { done: progress.done, total: progress.total }));
});
uploadProgressAtom.debugLabel = 'lib.uploadProgress';

export type UploadRequest = Omit<IpcRequest<'files:upload'>, 'jobId'> & { label: string };
export type UploadResult = IpcResult<IpcResponses['files:upload']>;

/**
 * Sends one file: main opens the dialog (or the page picks it on the web host), the job shows its progress until
 * the answer. Resolves with main's answer, null data when the user picked nothing; the caller says what the spec
 * says (its toasts differ by screen).
 */
export const uploadFileAtom = atom(null, async (get, set, request: UploadRequest): Promise<UploadResult> => {
  const id = crypto.randomUUID();
  const { label, ...payload } = request;
  set(uploadsAtom, [...get(uploadsAtom), { id, label, done: 0, total: null, cancelling: false }]);
  try {
    return await get(bridgeAtom).invoke('files:upload', { ...payload, jobId: id });
  } finally {
    set(
      uploadsAtom,
      get(uploadsAtom).filter((job) => job.id !== id),
    );
  }
});
uploadFileAtom.debugLabel = 'lib.uploadFile';

export type BytesUploadRequest = Omit<IpcRequest<'files:uploadBytes'>, 'jobId' | 'contentBase64'> & { label: string; blob: Blob };

async function base64Of(blob: Blob): Promise<string> {
  const url = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(blob);
  });
  return url.slice(url.indexOf(',') + 1);
}

/**
 * Sends bytes the page made (the image editor's crop) through 'files:uploadBytes': same job, progress and cancel
 * as a file from disk; main checks them against the operation and the 10 MB cap.
 */
export const uploadBytesAtom = atom(null, async (get, set, request: BytesUploadRequest): Promise<IpcResult<IpcResponses['files:uploadBytes']>> => {
  const id = crypto.randomUUID();
  const { label, blob, ...payload } = request;
  set(uploadsAtom, [...get(uploadsAtom), { id, label, done: 0, total: blob.size, cancelling: false }]);
  try {
    return await get(bridgeAtom).invoke('files:uploadBytes', { ...payload, contentBase64: await base64Of(blob), jobId: id });
  } finally {
    set(
      uploadsAtom,
      get(uploadsAtom).filter((job) => job.id !== id),
    );
  }
});
uploadBytesAtom.debugLabel = 'lib.uploadBytes';

export const cancelUploadAtom = atom(null, async (get, set, id: string) => {
  set(uploadsAtom, update(get(uploadsAtom), id, { cancelling: true }));
  await get(bridgeAtom).invoke('files:cancel', { jobId: id });
});
cancelUploadAtom.debugLabel = 'lib.cancelUpload';

function percent(job: UploadJob): number | undefined {
  return job.total ? Math.min(100, Math.round((job.done / job.total) * 100)) : undefined;
}

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toLocaleString('fr-FR', { maximumFractionDigits: 1 });
}

/** The uploads under way, each with its bar, its figures and Annuler. Place it where the screen uploads. */
export function UploadProgressList() {
  const store = useStore();
  const bridge = useAtomValue(bridgeAtom);
  useEffect(() => bridge.on('files:progress', (progress) => store.set(uploadProgressAtom, progress)), [bridge, store]);
  const jobs = useAtomValue(uploadsAtom);
  const cancel = useSetAtom(cancelUploadAtom);
  if (jobs.length === 0) return null;
  return (
    <ul className="upload-jobs" aria-label="Envois en cours" data-testid="upload-jobs">
      {jobs.map((job) => (
        <li key={job.id} className="upload-job" data-testid="upload-job">
          <span className="upload-job-label">{job.label}</span>
          <progress max={100} value={percent(job)} aria-label={job.label} />
          <span className="upload-job-count" data-testid="upload-job-count">
            {job.total !== null ? `${megabytes(job.done)} / ${megabytes(job.total)} Mo` : ''}
          </span>
          <button type="button" className="link" disabled={job.cancelling} onClick={() => void cancel(job.id)} data-testid="upload-job-cancel">
            Annuler
          </button>
        </li>
      ))}
    </ul>
  );
}
