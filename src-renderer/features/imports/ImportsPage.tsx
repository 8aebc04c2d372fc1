import { useAtomValue, useSetAtom } from 'jotai';
import { IMPORT_MESSAGES as M } from '@shared/messages/imports';
import { IMPORT_FIELDS, IMPORT_JOB_KIND, type ImportField } from '@shared/rules/imports';
import { formatDate } from '@shared/rules/dates';
import { useJobEvents } from '../../lib/job-events';
import { UploadProgressList } from '../../lib/uploads';
import { useQuery } from '../../lib/use-query';
import { ImportJobPanel } from './ImportJobPanel';
import {
  filesAtom,
  jobAtom,
  jobEventAtom,
  loadFilesAtom,
  loadLatestJobAtom,
  mappingAtom,
  openPreviewAtom,
  previewAtom,
  runImportAtom,
  setFieldAtom,
  uploadCsvAtom,
} from './atoms';
import './imports.css';

function formatSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toLocaleString('fr-FR', { maximumFractionDigits: 1 })} Ko`;
  return `${(bytes / (1024 * 1024)).toLocaleString('fr-FR', { maximumFractionDigits: 1 })} Mo`;
}

function FileList() {
  const files = useAtomValue(filesAtom);
  const preview = useAtomValue(previewAtom);
  const open = useSetAtom(openPreviewAtom);
  if (!files.length) return <p className="muted">{M.noFiles}</p>;
  return (
    <table className="data-table imports-files" aria-label={M.files}>
      <tbody>
        {files.map((file) => (
          <tr key={file.name} className={preview?.filename === file.name ? 'current' : undefined} data-testid="csv-file-row">
            <td className="imports-file-name">{file.name}</td>
            <td>{formatSize(file.size)}</td>
            <td>{formatDate(Math.floor(file.updatedAt / 1000))}</td>
            <td>
              <button
                type="button"
                className="link"
                onClick={() => void open({ filename: file.name, page: 0 })}
                data-testid={`open-csv-${file.name}`}
              >
                {M.open}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Each header of the file and the field it fills (or nothing), as selects above the preview's columns. */
function MappingRow() {
  const preview = useAtomValue(previewAtom)!;
  const mapping = useAtomValue(mappingAtom);
  const setField = useSetAtom(setFieldAtom);
  const offered = preview.availableFields360.length ? preview.availableFields360 : IMPORT_FIELDS;
  return (
    <tr className="imports-mapping" aria-label={M.mappingTitle}>
      {mapping.map((entry) => (
        <th key={entry.header}>
          <select
            aria-label={`Champ de la colonne ${entry.header}`}
            data-testid={`mapping-${entry.header}`}
            value={entry.field ?? ''}
            onChange={(event) => setField({ header: entry.header, field: (event.target.value || null) as ImportField | null })}
          >
            <option value="">{M.notMapped}</option>
            {offered.map((field) => (
              <option key={field} value={field}>
                {field}
              </option>
            ))}
          </select>
        </th>
      ))}
    </tr>
  );
}

function Preview() {
  const preview = useAtomValue(previewAtom);
  const open = useSetAtom(openPreviewAtom);
  const run = useSetAtom(runImportAtom);
  const job = useAtomValue(jobAtom);
  if (!preview) return null;
  const running = job?.state === 'running' || job?.state === 'queued';
  return (
    <section className="imports-preview" aria-label={M.preview} data-testid="csv-preview">
      <header className="imports-preview-header">
        <h2>
          {M.mappingTitle} — {preview.filename}
        </h2>
        <button type="button" className="primary" disabled={running} onClick={() => void run()} data-testid="import-go">
          {M.go}
        </button>
      </header>
      <div className="imports-table-scroll">
        <table className="data-table">
          <thead>
            <MappingRow />
            <tr>
              {preview.headers.map((header, index) => (
                <th key={index}>{header}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.data.map((row, index) => (
              <tr key={index} data-testid="preview-row">
                {preview.headers.map((_header, column) => (
                  <td key={column}>{row[column] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav className="imports-pager" aria-label={M.preview}>
        <button
          type="button"
          disabled={preview.page === 0}
          onClick={() => void open({ filename: preview.filename, page: preview.page - 1 })}
          data-testid="preview-previous"
        >
          {M.previous}
        </button>
        <span data-testid="preview-page">{M.page(preview.page + 1)}</span>
        <button
          type="button"
          disabled={!preview.hasMore}
          onClick={() => void open({ filename: preview.filename, page: preview.page + 1 })}
          data-testid="preview-next"
        >
          {M.next}
        </button>
      </nav>
    </section>
  );
}

/** /imports: pick a CSV file, map its columns to the population's fields, page the preview, Go (spec §2). */
export default function ImportsPage() {
  const loadFiles = useSetAtom(loadFilesAtom);
  const loadLatest = useSetAtom(loadLatestJobAtom);
  const upload = useSetAtom(uploadCsvAtom);
  const onEvent = useSetAtom(jobEventAtom);
  useJobEvents(IMPORT_JOB_KIND, (event) => void onEvent(event));
  useQuery('imports.page', (signal) => Promise.all([loadFiles(signal), loadLatest(signal)]));
  return (
    <section className="imports-page" data-testid="imports-page">
      <header className="page-header">
        <h1>{M.title}</h1>
        <button type="button" className="primary" onClick={() => void upload()} data-testid="upload-csv">
          {M.pickFile}
        </button>
      </header>
      <UploadProgressList />
      <FileList />
      <ImportJobPanel />
      <Preview />
    </section>
  );
}
