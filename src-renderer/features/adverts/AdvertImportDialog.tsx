import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import type { CsvPreviewInfo } from '@shared/ipc';
import { ADVERT_SCREEN_MESSAGES as M, ADVERT_SCREEN_NOTICES as N } from '@shared/messages/advert-screens';
import { ADVERT_MESSAGES } from '@shared/messages/adverts';
import { IMPORT_MESSAGES } from '@shared/messages/files';
import { ADVERT_IMPORT_MAX_ROWS, parseAdvertCsvRow } from '@shared/rules/advert-screens/csv-import';
import { bridgeAtom } from '../../lib/bridge';
import { fileJobsAtom, importCsvRowsAtom } from '../../lib/file-jobs';
import { raiseNoticeAtom } from '../../lib/notices';
import { Dialog } from '../../ui/Dialog';
import { advertList } from './atoms';

interface RowProblem {
  line: number;
  message: string;
}

/**
 * The CSV import modal (§2.1): main reads the file (encoding, delimiter) and answers its first rows, checked here
 * with the §5 rules (booleans true/yes/1, false/no/0; integers; dates as epoch seconds or date strings) for an
 * early answer. The import sends the whole file's rows through main (they never cross IPC) to one batch call,
 * which checks every row and creates them all in one transaction: any row error imports nothing and is shown
 * with its row, so a file is imported whole or not at all. Progress shows while main reads and sends.
 */
export function AdvertImportDialog(props: { onClose: () => void }) {
  const bridge = useAtomValue(bridgeAtom);
  const raise = useSetAtom(raiseNoticeAtom);
  const reload = useSetAtom(advertList.loadAtom);
  const importRows = useSetAtom(importCsvRowsAtom);
  const jobs = useAtomValue(fileJobsAtom);
  const [preview, setPreview] = useState<CsvPreviewInfo | null>(null);
  const [problems, setProblems] = useState<RowProblem[]>([]);
  const [busy, setBusy] = useState(false);
  const job = busy ? jobs.find((entry) => entry.kind === 'import' && entry.label === M.importTitle) : undefined;

  async function pick() {
    const result = await bridge.invoke('files:previewCsv', {});
    if (!result.ok) return raise(N.serverError(result.errorMsg));
    if (!result.data) return;
    setPreview(result.data);
    const found: RowProblem[] = [];
    if (result.data.rowCount > ADVERT_IMPORT_MAX_ROWS)
      found.push({ line: 0, message: IMPORT_MESSAGES.tooManyRows(ADVERT_IMPORT_MAX_ROWS, result.data.rowCount) });
    result.data.rows.forEach((row, index) => {
      const parsed = parseAdvertCsvRow(row);
      const errors = [...parsed.errors];
      if (!parsed.value.name) errors.push(ADVERT_MESSAGES.advertNameRequired);
      for (const message of errors) found.push({ line: index + 2, message });
    });
    setProblems(found);
  }

  async function runImport() {
    if (!preview || problems.length) return;
    setBusy(true);
    try {
      const report = await importRows({
        label: M.importTitle,
        handle: preview.handle,
        operation: 'adverts.importMany',
        bodyField: 'rows',
        chunkSize: ADVERT_IMPORT_MAX_ROWS,
        maxRows: ADVERT_IMPORT_MAX_ROWS,
      });
      if (!report) return;
      const answers = report.answers as { imported: number; errors: RowProblem[] }[];
      const errors = [...(report.refused ? [report.refused] : []), ...answers.flatMap((answer) => answer.errors)];
      if (errors.length) {
        setProblems(errors);
        raise(N.serverError(M.importNothingImported));
        return;
      }
      raise(N.importDone(answers.reduce((sum, answer) => sum + answer.imported, 0)));
      await reload(0);
      props.onClose();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      title={M.importTitle}
      testId="advert-import-dialog"
      onCancel={busy ? undefined : props.onClose}
      actions={
        <>
          <button type="button" className="secondary" onClick={props.onClose} disabled={busy} data-testid="advert-import-cancel">
            Annuler
          </button>
          <button
            type="button"
            className="primary"
            onClick={() => void runImport()}
            disabled={!preview || problems.length > 0 || busy || preview.rows.length === 0}
            data-testid="advert-import-run"
          >
            Importer
          </button>
        </>
      }
    >
      <p className="muted">
        Colonnes lues : name, type, title, subtitle, author, source, tagline, description, footNote, buttonLabel, sonataId, weight, maxViews, isFree,
        showReadMore, promoteInSearch, autoStartAt, autoStopAt. Les publicités sont créées non publiées.
      </p>
      <button type="button" className="secondary" onClick={() => void pick()} disabled={busy} data-testid="advert-import-pick">
        Choisir un fichier CSV
      </button>
      {preview && (
        <p data-testid="advert-import-summary">
          {preview.fileName} : {preview.rowCount} ligne{preview.rowCount > 1 ? 's' : ''}
        </p>
      )}
      {job && (
        <p data-testid="advert-import-progress">
          <progress max={job.total ?? undefined} value={job.done} aria-label={M.importTitle} /> {job.done}
          {job.total !== null ? ` / ${job.total}` : ''}
        </p>
      )}
      {problems.length > 0 && (
        <>
          <p className="form-error">{M.importNothingImported}</p>
          <ul className="import-errors" data-testid="advert-import-errors">
            {problems.map((problem, index) => (
              <li key={index}>{problem.line ? `Ligne ${problem.line} : ${problem.message}` : problem.message}</li>
            ))}
          </ul>
        </>
      )}
    </Dialog>
  );
}
