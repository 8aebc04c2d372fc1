import { atom } from 'jotai';
import type { CsvData, CsvFile, ImportJob } from '@shared/contract/imports';
import type { JobEvent } from '@shared/jobs';
import { notice } from '@shared/messages';
import { IMPORT_NOTICES } from '@shared/messages/imports';
import { STORAGE_MESSAGES } from '@shared/messages/storage';
import { CSV_PREVIEW_PAGE_SIZE, guessField, type ImportField, type MappingEntry } from '@shared/rules/imports';
import { apiAtom } from '../../lib/bridge';
import { raiseNoticeAtom } from '../../lib/notices';
import { uploadFileAtom } from '../../lib/uploads';

/** The CSV list import screen (audiences-projects-tools.md §2 "CSV list import", §9; docs/imports.md). */

export const filesAtom = atom<CsvFile[]>([]);
filesAtom.debugLabel = 'imports.files';

/** The open file's current preview page (25 rows, spec §9), its headers and the fields offered. */
export const previewAtom = atom<(CsvData & { page: number }) | null>(null);
previewAtom.debugLabel = 'imports.preview';

/** Header → field (null: not imported), in the file's column order. */
export const mappingAtom = atom<MappingEntry[]>([]);
mappingAtom.debugLabel = 'imports.mapping';

/** The import followed on the page: read with GET when it starts or the page opens, then moved by job events. */
export const jobAtom = atom<ImportJob | null>(null);
jobAtom.debugLabel = 'imports.job';

const errorAtom = atom(null, (_get, set, errorMsg: string) => set(raiseNoticeAtom, notice(errorMsg, 'error', 3000)));
errorAtom.debugLabel = 'imports.error';

export const loadFilesAtom = atom(null, async (get, set, signal?: AbortSignal) => {
  const result = await get(apiAtom)('imports.files', {});
  if (signal?.aborted) return;
  if (!result.ok) return set(errorAtom, result.errorMsg);
  set(filesAtom, result.data.files);
});
loadFilesAtom.debugLabel = 'imports.loadFiles';

/**
 * The latest import, so a page that opens again shows the one under way. A read the page's query dropped (the page
 * left) writes nothing: it would replace an import started since with an older one.
 */
export const loadLatestJobAtom = atom(null, async (get, set, signal?: AbortSignal) => {
  const result = await get(apiAtom)('imports.jobs', {});
  if (signal?.aborted || !result.ok || !result.data.jobs.length) return;
  const [latest] = result.data.jobs;
  const full = await get(apiAtom)('imports.job', { params: { id: latest.id } });
  if (full.ok && !signal?.aborted) set(jobAtom, full.data);
});
loadLatestJobAtom.debugLabel = 'imports.loadLatestJob';

/** Sends a CSV file through main (streamed, with its progress), then lists the files again. */
export const uploadCsvAtom = atom(null, async (get, set) => {
  const result = await set(uploadFileAtom, { operation: 'imports.upload', fields: {}, label: 'CSV' });
  if (!result.ok) {
    if (result.errorMsg !== STORAGE_MESSAGES.uploadCancelled) set(errorAtom, result.errorMsg);
    return;
  }
  if (!result.data) return;
  set(raiseNoticeAtom, IMPORT_NOTICES.uploaded);
  await set(loadFilesAtom);
});
uploadCsvAtom.debugLabel = 'imports.upload';

/** Opens a page of a file's preview; the first page of a new file starts its mapping from the headers. */
export const openPreviewAtom = atom(null, async (get, set, request: { filename: string; page: number }) => {
  const result = await get(apiAtom)('imports.data', {
    query: { filename: request.filename, max: CSV_PREVIEW_PAGE_SIZE, skip: request.page * CSV_PREVIEW_PAGE_SIZE },
  });
  if (!result.ok) return set(errorAtom, result.errorMsg);
  if (get(previewAtom)?.filename !== request.filename) {
    set(
      mappingAtom,
      result.data.headers.map((header) => ({ header, field: guessField(header) })),
    );
  }
  set(previewAtom, { ...result.data, page: request.page });
});
openPreviewAtom.debugLabel = 'imports.openPreview';

export const setFieldAtom = atom(null, (get, set, change: { header: string; field: ImportField | null }) => {
  set(
    mappingAtom,
    get(mappingAtom).map((entry) => (entry.header === change.header ? { ...entry, field: change.field } : entry)),
  );
});
setFieldAtom.debugLabel = 'imports.setField';

/** Go: starts the import of the open file with the mapping; a refused mapping says why. */
export const runImportAtom = atom(null, async (get, set) => {
  const preview = get(previewAtom);
  if (!preview) return;
  const result = await get(apiAtom)('imports.run', { body: { filename: preview.filename, mapping: get(mappingAtom) } });
  if (!result.ok) return set(errorAtom, result.errorMsg);
  set(jobAtom, result.data);
});
runImportAtom.debugLabel = 'imports.run';

export const cancelImportAtom = atom(null, async (get, set) => {
  const job = get(jobAtom);
  if (!job) return;
  const result = await get(apiAtom)('imports.cancel', { params: { id: job.id } });
  if (!result.ok) return set(errorAtom, result.errorMsg);
  set(jobAtom, result.data);
});
cancelImportAtom.debugLabel = 'imports.cancel';

/** A job event of the followed import: its progress moves; once it ends, its errors are read with GET. */
export const jobEventAtom = atom(null, async (get, set, event: JobEvent) => {
  const job = get(jobAtom);
  if (!job || String(job.id) !== event.id) return;
  const { read = 0, valid = 0, written = 0, merging = 0, inserted = 0, updated = 0, errorCount = 0 } = event.progress;
  set(jobAtom, {
    ...job,
    state: event.state,
    phase: event.state === 'running' ? (merging ? 'merging' : 'reading') : null,
    progress: { read, valid, written },
    inserted,
    updated,
    errorCount,
    message: event.message ?? job.message,
  });
  if (event.state === 'running' || event.state === 'queued') return;
  const full = await get(apiAtom)('imports.job', { params: { id: job.id } });
  if (full.ok) set(jobAtom, full.data);
});
jobEventAtom.debugLabel = 'imports.jobEvent';
