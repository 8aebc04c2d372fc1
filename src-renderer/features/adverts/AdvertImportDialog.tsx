import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import type { AdvertInput } from '@shared/contract/content';
import type { CsvPreviewInfo } from '@shared/ipc';
import { ADVERT_SCREEN_MESSAGES as M, ADVERT_SCREEN_NOTICES as N } from '@shared/messages/advert-screens';
import { parseAdvertCsvRow } from '@shared/rules/advert-screens';
import { apiAtom, bridgeAtom } from '../../lib/bridge';
import { raiseNoticeAtom } from '../../lib/notices';
import { Dialog } from '../../ui/Dialog';
import { advertList } from './atoms';

interface RowProblem {
  line: number;
  message: string;
}

/**
 * The CSV import modal (§2.1): main reads the file (encoding, delimiter) and answers its rows; each row is parsed
 * with the §5 rules (booleans true/yes/1, false/no/0; integers; dates as epoch seconds or date strings). Any
 * row error is shown and nothing is imported; a server refusal midway deletes the adverts created so far, so a
 * file is imported whole or not at all. Main hands the screen the first 25 rows: a longer file is refused
 * whole (the import of more rows at once needs a server batch call, see the report to the lead).
 */
export function AdvertImportDialog(props: { onClose: () => void }) {
  const bridge = useAtomValue(bridgeAtom);
  const call = useAtomValue(apiAtom);
  const raise = useSetAtom(raiseNoticeAtom);
  const reload = useSetAtom(advertList.loadAtom);
  const [preview, setPreview] = useState<CsvPreviewInfo | null>(null);
  const [problems, setProblems] = useState<RowProblem[]>([]);
  const [busy, setBusy] = useState(false);

  async function pick() {
    const result = await bridge.invoke('files:previewCsv', {});
    if (!result.ok) return raise(N.serverError(result.errorMsg));
    if (!result.data) return;
    setPreview(result.data);
    const found: RowProblem[] = [];
    if (result.data.rowCount > result.data.rows.length) found.push({ line: 0, message: `Au plus ${result.data.rows.length} lignes par import (${result.data.rowCount} dans le fichier)` });
    result.data.rows.forEach((row, index) => {
      const parsed = parseAdvertCsvRow(row);
      const errors = [...parsed.errors];
      if (!parsed.value.name) errors.push(M.advertNameRequired);
      for (const message of errors) found.push({ line: index + 2, message });
    });
    setProblems(found);
  }

  async function runImport() {
    if (!preview || problems.length) return;
    setBusy(true);
    const created: number[] = [];
    try {
      for (const [index, row] of preview.rows.entries()) {
        const { value } = parseAdvertCsvRow(row);
        const { id: _id, published: _published, ...fields } = value;
        const result = await call('adverts.create', { body: { advert: fields as AdvertInput } });
        if (!result.ok) {
          // Nothing half-imported: what this file created so far goes.
          for (const id of created) await call('adverts.delete', { params: { id } });
          setProblems([{ line: index + 2, message: result.errorMsg }]);
          raise(N.serverError(M.importNothingImported));
          return;
        }
        created.push(result.data.id);
      }
      raise(N.importDone(created.length));
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
          <button type="button" className="primary" onClick={() => void runImport()} disabled={!preview || problems.length > 0 || busy || preview.rows.length === 0} data-testid="advert-import-run">
            Importer
          </button>
        </>
      }
    >
      <p className="muted">Colonnes lues : name, type, title, subtitle, author, source, tagline, description, footNote, buttonLabel, sonataId, weight, maxViews, isFree, showReadMore, promoteInSearch, autoStartAt, autoStopAt. Les publicités sont créées non publiées.</p>
      <button type="button" className="secondary" onClick={() => void pick()} disabled={busy} data-testid="advert-import-pick">
        Choisir un fichier CSV
      </button>
      {preview && (
        <p data-testid="advert-import-summary">
          {preview.fileName} : {preview.rowCount} ligne{preview.rowCount > 1 ? 's' : ''}
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
