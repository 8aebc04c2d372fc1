import { atom } from 'jotai';
import type { CsvPreviewInfo } from '@shared/ipc';
import { AUDIENCE_NOTICES, withText } from '@shared/messages';
import { emailColumn } from '@shared/rules/audience-editor';
import { bridgeAtom } from '../../../lib/bridge';
import { importCsvAtom } from '../../../lib/file-jobs';
import { raiseNoticeAtom } from '../../../lib/notices';
import { ensureSavedAtom, mergeAttachedUsersAtom } from './editor';

/** The e-mail list picked for the "new list" dialog: the file's preview and its email column. */
export const emailListAtom = atom<{ preview: CsvPreviewInfo; column: string; emails: number } | null>(null);
emailListAtom.debugLabel = 'audiences.emailList.picked';
export const emailListBusyAtom = atom(false);
emailListBusyAtom.debugLabel = 'audiences.emailList.busy';

/** attachEmails takes at most 10,000 e-mails a call: the file goes in chunks of that many. */
const ATTACH_CHUNK = 10_000;

/**
 * Picks a CSV file (native dialog through main; the web host uploads it first). A file without an "email"
 * column is refused with the spec's text (3 s); an unreadable file with main's reason.
 */
export const pickEmailListAtom = atom(null, async (get, set) => {
  set(emailListBusyAtom, true);
  try {
    const result = await get(bridgeAtom).invoke('files:previewCsv', {});
    if (!result.ok) return set(raiseNoticeAtom, withText(AUDIENCE_NOTICES.serverError, result.errorMsg));
    if (!result.data) return;
    const column = emailColumn(result.data.columns);
    if (!column) {
      set(emailListAtom, null);
      return set(raiseNoticeAtom, AUDIENCE_NOTICES.noEmailColumn);
    }
    // The preview holds the first rows only: a file whose rows have no e-mail at the start still counts its rows.
    const emails = result.data.rows.some((row) => (row[column] ?? '').trim()) ? result.data.rowCount : 0;
    set(emailListAtom, { preview: result.data, column, emails });
  } finally {
    set(emailListBusyAtom, false);
  }
});
pickEmailListAtom.debugLabel = 'audiences.emailList.pick';

/** Attaches the file's e-mails to the audience (saved first when new); toast '{n} ajoutés'. Answers n. */
export const attachEmailListAtom = atom(null, async (get, set): Promise<number | null> => {
  const picked = get(emailListAtom);
  if (!picked || picked.emails === 0) return null;
  set(emailListBusyAtom, true);
  try {
    const id = await set(ensureSavedAtom);
    if (id === null) return null;
    const report = await set(importCsvAtom, {
      label: picked.preview.fileName,
      handle: picked.preview.handle,
      operation: 'audiences.attachEmails',
      params: { id },
      column: picked.column,
      bodyField: 'emails',
      chunkSize: ATTACH_CHUNK,
    });
    if (!report) return null;
    const added = await set(mergeAttachedUsersAtom, id);
    if (added === null) return null;
    set(emailListAtom, null);
    if (report.refused > 0 && report.errors[0]) set(raiseNoticeAtom, withText(AUDIENCE_NOTICES.serverError, report.errors[0].message));
    set(raiseNoticeAtom, AUDIENCE_NOTICES.emailsAdded(added));
    return added;
  } finally {
    set(emailListBusyAtom, false);
  }
});
attachEmailListAtom.debugLabel = 'audiences.emailList.attach';
