import { atom } from 'jotai';
import type { CsvImportReport, CsvPreviewInfo } from '@shared/ipc';
import { AUDIENCE_MESSAGES, AUDIENCE_NOTICES, withText } from '@shared/messages';
import { canSave, emailColumn } from '@shared/rules/audience-editor';
import { bridgeAtom } from '../../../lib/bridge';
import { importCsvAtom } from '../../../lib/file-jobs';
import { raiseNoticeAtom } from '../../../lib/notices';
import { mergeAttachedUsersAtom } from './criteria';
import { draftAtom } from './draft';
import { attachToProvisionalAudienceAtom, ensureSavedAtom } from './save';

/** The e-mail list picked for the "new list" dialog: the file's preview and its email column. */
export const emailListAtom = atom<{ preview: CsvPreviewInfo; column: string; emails: number } | null>(null);
emailListAtom.debugLabel = 'audiences.emailList.picked';
export const emailListBusyAtom = atom(false);
emailListBusyAtom.debugLabel = 'audiences.emailList.busy';

/** Shown in the e-mail list dialog after an attach that was not kept (nothing added to a new audience). */
export const emailListReportAtom = atom<string | null>(null);
emailListReportAtom.debugLabel = 'audiences.emailList.report';

/** attachEmails takes at most 10,000 e-mails a call: the file goes in chunks of that many. */
const ATTACH_CHUNK = 10_000;

/**
 * Picks a CSV file (native dialog through main; the web host uploads it first). A file without an "email"
 * column is refused with the spec's text (3 s); an unreadable file with main's reason.
 */
export const pickEmailListAtom = atom(null, async (get, set) => {
  set(emailListBusyAtom, true);
  set(emailListReportAtom, null);
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

/** How many of each the first reasons name. */
const FIRST_REASONS = 3;

/** What the file's import did: the server's added and unmatched per chunk, main's invalid rows. */
export function summarizeEmailList(report: CsvImportReport, added?: number) {
  const answers = report.answers as { added?: number; unmatched?: string[] }[];
  const unmatched = answers.flatMap((answer) => answer?.unmatched ?? []);
  // Rows main left out (blank or not an address) carry their value; rows of a chunk the server refused do not.
  const invalidRows = report.errors.filter((error) => error.value !== undefined);
  return {
    added: added ?? answers.reduce((sum, answer) => sum + (answer?.added ?? 0), 0),
    unknown: unmatched.length,
    invalid: report.invalid,
    firstInvalid: invalidRows.slice(0, FIRST_REASONS).map((error) => ({ line: error.line, value: error.value ?? '' })),
    firstUnknown: unmatched.slice(0, FIRST_REASONS),
  };
}

/**
 * Attaches the file's e-mails to the audience and reports what happened: added, unknown (no account) and invalid
 * (blank or not an address, with their rows; never sent) counts with the first of each. A new audience without a
 * criterion is kept only if the list added someone (spec §4: an audience is never saved without a criterion);
 * else it is not saved, with the spec's warning. Answers the number added, or null when nothing was kept.
 */
export const attachEmailListAtom = atom(null, async (get, set): Promise<number | null> => {
  const picked = get(emailListAtom);
  const draft = get(draftAtom);
  if (!picked || picked.emails === 0 || !draft) return null;
  set(emailListBusyAtom, true);
  set(emailListReportAtom, null);
  const send = (operation: 'audiences.attachEmails' | 'audiences.matchEmails', params?: { id: number }) =>
    set(importCsvAtom, {
      label: picked.preview.fileName,
      handle: picked.preview.handle,
      operation,
      ...(params ? { params } : {}),
      column: picked.column,
      bodyField: 'emails',
      chunkSize: ATTACH_CHUNK,
      format: 'email',
    });
  const run = (id: number) => send('audiences.attachEmails', { id });
  try {
    let id: number | null;
    let report: CsvImportReport | null;
    if (draft.id === null && !canSave(draft)) {
      // Nothing is created before the list is known to bring a criterion: an audience made for a list of unknown
      // addresses would be deleted at once and sit among the deleted audiences, criterion-less (spec §4).
      const matched = await send('audiences.matchEmails');
      if (!matched) return null;
      const known = (matched.answers as { known?: number }[]).reduce((sum, answer) => sum + (answer?.known ?? 0), 0);
      if (known === 0) {
        const text = AUDIENCE_MESSAGES.emailListReport(summarizeEmailList(matched, 0));
        set(emailListReportAtom, text);
        set(raiseNoticeAtom, AUDIENCE_NOTICES.needsCriterion);
        set(raiseNoticeAtom, AUDIENCE_NOTICES.emailListReport(text, false));
        return null;
      }
      const done = await set(attachToProvisionalAudienceAtom, async (provisional) => {
        const answer = await run(provisional);
        return answer && { answer, attached: summarizeEmailList(answer).added > 0 };
      });
      if (!done) return null;
      report = done.answer;
      if (!done.kept) {
        const text = AUDIENCE_MESSAGES.emailListReport(summarizeEmailList(report, 0));
        set(emailListReportAtom, text);
        set(raiseNoticeAtom, AUDIENCE_NOTICES.needsCriterion);
        set(raiseNoticeAtom, AUDIENCE_NOTICES.emailListReport(text, false));
        return null;
      }
      id = get(draftAtom)?.id ?? null;
    } else {
      id = await set(ensureSavedAtom);
      report = id === null ? null : await run(id);
    }
    if (id === null || !report) return null;
    const added = await set(mergeAttachedUsersAtom, id);
    if (added === null) return null;
    set(emailListAtom, null);
    if (report.refused > 0) {
      const refused = report.errors.find((error) => error.value === undefined);
      if (refused) set(raiseNoticeAtom, withText(AUDIENCE_NOTICES.serverError, refused.message));
    }
    const summary = summarizeEmailList(report, added);
    set(
      raiseNoticeAtom,
      AUDIENCE_NOTICES.emailListReport(
        AUDIENCE_MESSAGES.emailListReport(summary),
        summary.unknown === 0 && summary.invalid === 0 && report.refused === 0,
      ),
    );
    return added;
  } finally {
    set(emailListBusyAtom, false);
  }
});
attachEmailListAtom.debugLabel = 'audiences.emailList.attach';
