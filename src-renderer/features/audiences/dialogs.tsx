import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { AUDIENCE_MESSAGES } from '@shared/messages';
import { keywordNeedsAdvice, normaliseKeyword } from '@shared/rules/audience-editor';
import { Dialog } from '../../ui/Dialog';
import { attachEmailListAtom, emailListAtom, emailListBusyAtom, emailListReportAtom, pickEmailListAtom } from './atoms/email-list';

/** "New keyword": trimmed and lowercased; the modal advises against accents and capitals (spec §5). */
export function NewKeywordDialog(props: { onAdd: (keyword: string) => Promise<void>; onClose: () => void }) {
  const [text, setText] = useState('');
  const keyword = normaliseKeyword(text);
  return (
    <Dialog
      title="Nouveau mot-clé"
      testId="new-keyword-dialog"
      onCancel={props.onClose}
      actions={
        <>
          <button type="button" className="secondary" onClick={props.onClose}>
            Annuler
          </button>
          <button type="button" className="primary" disabled={!keyword} onClick={() => void props.onAdd(keyword)} data-testid="new-keyword-add">
            Ajouter
          </button>
        </>
      }
    >
      <div className="form">
        <p className={keywordNeedsAdvice(text) ? 'field-error' : 'muted'} data-testid="new-keyword-advice">
          {AUDIENCE_MESSAGES.keywordAdvice}
        </p>
        <label className="field">
          <span className="field-label">Mot-clé</span>
          <input value={text} onChange={(event) => setText(event.target.value)} maxLength={200} autoFocus data-testid="new-keyword-text" />
        </label>
        {keyword && keyword !== text && <p className="muted">Enregistré comme « {keyword} »</p>}
      </div>
    </Dialog>
  );
}

/** "New list": a CSV file of e-mails (column "email"); Add disabled while no e-mail is loaded (spec §5). */
export function EmailListDialog(props: { onClose: () => void; onAdded: () => void }) {
  const picked = useAtomValue(emailListAtom);
  const busy = useAtomValue(emailListBusyAtom);
  const pick = useSetAtom(pickEmailListAtom);
  const attach = useSetAtom(attachEmailListAtom);
  const setPicked = useSetAtom(emailListAtom);
  const [report, setReport] = useAtom(emailListReportAtom);
  const close = () => {
    setPicked(null);
    setReport(null);
    props.onClose();
  };
  return (
    <Dialog
      title="Nouvelle liste"
      testId="email-list-dialog"
      onCancel={close}
      actions={
        <>
          <button type="button" className="secondary" onClick={close}>
            Annuler
          </button>
          <button
            type="button"
            className="primary"
            disabled={busy || !picked || picked.emails === 0}
            onClick={async () => {
              if ((await attach()) !== null) props.onAdded();
            }}
            data-testid="email-list-add"
          >
            Ajouter
          </button>
        </>
      }
    >
      <div className="form">
        <p className="muted">Un fichier CSV avec une colonne « email ».</p>
        <button type="button" className="secondary" disabled={busy} onClick={() => void pick()} data-testid="email-list-pick">
          Choisir un fichier CSV…
        </button>
        <p data-testid="email-list-status">
          {picked
            ? `${picked.preview.fileName} — ${picked.emails === 0 ? AUDIENCE_MESSAGES.noEmailLoaded : AUDIENCE_MESSAGES.emailsLoaded(picked.emails)}`
            : AUDIENCE_MESSAGES.noEmailLoaded}
        </p>
        {report && (
          <p className="field-error" role="alert" data-testid="email-list-report">
            {AUDIENCE_MESSAGES.audienceNeedsCriterion} — {report}
          </p>
        )}
      </div>
    </Dialog>
  );
}
