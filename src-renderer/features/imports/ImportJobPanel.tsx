import { useAtomValue, useSetAtom } from 'jotai';
import type { ImportJob } from '@shared/contract/imports';
import { IMPORT_MESSAGES as M } from '@shared/messages/imports';
import { apiAtom } from '../../lib/bridge';
import { dataOf } from '../../lib/query';
import { useQuery } from '../../lib/use-query';
import { cancelImportAtom, jobAtom } from './atoms';

/** Safety net under the job events: while the import runs, its state is read again every few seconds. */
const POLL_MS = 3000;

function Count({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <div className="imports-count">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value.toLocaleString('fr-FR')}</dd>
    </div>
  );
}

function ErrorList({ job }: { job: ImportJob }) {
  if (!job.errorCount) return null;
  return (
    <div className="imports-errors" data-testid="import-errors">
      <h3>{M.errorsTitle(job.errorCount, job.errors.length)}</h3>
      <ul>
        {job.errors.map((error) => (
          <li key={`${error.line}-${error.column}`} data-testid="import-error">
            {M.errorAt(error.line, error.column, error.message)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The import followed by the page: state, phase, counts with a bar, Annuler while it runs, errors once it failed. */
export function ImportJobPanel() {
  const job = useAtomValue(jobAtom);
  const cancel = useSetAtom(cancelImportAtom);
  const api = useAtomValue(apiAtom);
  const setJob = useSetAtom(jobAtom);
  const running = job?.state === 'running' || job?.state === 'queued';
  const id = job?.id;
  // Polled only while it runs; an answer replaces the job only if it still is this one and still running.
  useQuery(
    ['imports.job', id],
    async (signal) => {
      if (id === undefined) return;
      const read = await dataOf(api('imports.job', { params: { id } }));
      if (!signal.aborted) setJob((current) => (current?.id === id && current.state === 'running' ? read : current));
    },
    { enabled: running && id !== undefined, refreshMs: POLL_MS },
  );
  if (!job) return null;
  const { read, valid, written } = job.progress;
  const merging = job.phase === 'merging';
  return (
    <section className={`imports-job imports-job-${job.state}`} aria-label={M.title} data-testid="import-job">
      <header>
        <strong data-testid="import-state">{M.states[job.state]}</strong>
        <span className="muted">
          {job.filename}
          {job.phase ? ` — ${M.phases[job.phase]}` : ''}
        </span>
        {running && (
          <button type="button" onClick={() => void cancel()} data-testid="import-cancel">
            {M.cancel}
          </button>
        )}
      </header>
      {running && (
        <progress
          max={merging ? Math.max(valid, 1) : undefined}
          value={merging ? written : undefined}
          aria-label={M.phases[job.phase ?? 'reading']}
        />
      )}
      <dl className="imports-counts">
        <Count label={M.rowsRead} value={read} testId="import-read" />
        <Count label={M.rowsValid} value={valid} testId="import-valid" />
        <Count label={M.rowsWritten} value={written} testId="import-written" />
      </dl>
      {job.message && job.state !== 'running' && !job.errorCount && <p data-testid="import-message">{job.message}</p>}
      {job.state === 'failed' && <ErrorList job={job} />}
    </section>
  );
}
