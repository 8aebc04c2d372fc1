import { atom } from 'jotai';
import type { IpcResponses } from '@shared/ipc';
import { IMPORT_MESSAGES, notice } from '@shared/messages';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { bridgeAtom } from '../../lib/bridge';
import { fileJobsAtom } from '../../lib/file-jobs';
import { raiseNoticeAtom } from '../../lib/notices';

/** What the quote export dialog shows after a run: the counts imported, or the server's French refusal. */
export type EstimateFileOutcome = { kind: 'imported'; text: string } | { kind: 'refused'; text: string } | null;

export const estimateFileBusyAtom = atom(false);
estimateFileBusyAtom.debugLabel = 'projects.estimateFile.busy';

/**
 * Imports the invoicing tool's quote export through main ('files:importEstimates', docs/projects.md, Quotes) as a file job
 * of the shell's panel (progress, cancel). Success: '3 devis importés (8 lignes) depuis devis.csv' (notice and
 * dialog); a refusal keeps the server's message ('Fichier de devis invalide (ligne 7) — Quantité : nombre
 * attendu') in the dialog. Null when the dialog was cancelled.
 */
export const importEstimateFileAtom = atom(null, async (get, set): Promise<EstimateFileOutcome> => {
  if (get(estimateFileBusyAtom)) return null;
  set(estimateFileBusyAtom, true);
  const id = crypto.randomUUID();
  set(fileJobsAtom, [
    ...get(fileJobsAtom),
    { id, kind: 'import', label: PROJECT_MESSAGES.estimateFileImporting, done: 0, total: null, cancelling: false },
  ]);
  try {
    const result = await get(bridgeAtom).invoke('files:importEstimates', { jobId: id });
    if (!result.ok) {
      if (result.errorMsg === IMPORT_MESSAGES.cancelled) {
        set(raiseNoticeAtom, notice(result.errorMsg, 'info'));
        return null;
      }
      return { kind: 'refused', text: result.errorMsg };
    }
    const report: IpcResponses['files:importEstimates'] = result.data;
    if (!report) return null;
    const text = PROJECT_MESSAGES.estimateFileImported(report.quotes, report.lines, report.fileName);
    set(raiseNoticeAtom, notice(text, 'success'));
    return { kind: 'imported', text };
  } finally {
    set(
      fileJobsAtom,
      get(fileJobsAtom).filter((job) => job.id !== id),
    );
    set(estimateFileBusyAtom, false);
  }
});
importEstimateFileAtom.debugLabel = 'projects.estimateFile.run';
