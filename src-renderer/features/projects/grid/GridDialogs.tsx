import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { DELAY_REASONS, NO_DELAY_REASON_LABEL, type DelayReason } from '@shared/rules/campaigns';
import { formatDay } from '@shared/rules/dates';
import { parseDate } from '@shared/rules/project-grid-typing';
import { useQuery } from '../../../lib/use-query';
import { Dialog, DialogActions } from '../../../ui/Dialog';
import { searchAdvertsAtom } from '../edit-atoms';

/** 'Raison du retard': "Aucune" first (stores null), then the seven reasons (adverts-articles.md §4). */
export function DelayReasonDialog(props: { onCancel(): void; onConfirm(reason: DelayReason | null): void }) {
  const [reason, setReason] = useState<DelayReason | ''>('');
  return (
    <div className="modal-backdrop">
      <Dialog
        title={PROJECT_MESSAGES.delayReasonTitle}
        testId="delay-reason-dialog"
        onCancel={props.onCancel}
        actions={
          <DialogActions
            onCancel={props.onCancel}
            confirm={{ label: PROJECT_MESSAGES.confirm, onClick: () => props.onConfirm(reason || null), testId: 'delay-reason-confirm' }}
          />
        }
      >
        <select
          aria-label={PROJECT_MESSAGES.delayReasonTitle}
          value={reason}
          onChange={(event) => setReason(event.target.value as DelayReason | '')}
          data-testid="delay-reason-select"
        >
          <option value="">{NO_DELAY_REASON_LABEL}</option>
          {DELAY_REASONS.map((option) => (
            <option key={option.key} value={option.key}>
              {option.label}
            </option>
          ))}
        </select>
      </Dialog>
    </div>
  );
}

/** 'Date de feedbacks intermédiaire': the checkDate set with "3.2 stats intermédiaires" (Confirmer). */
export function FeedbackDateDialog(props: { initial: number | null; onCancel(): void; onConfirm(checkDate: number): void }) {
  const [text, setText] = useState(formatDay(props.initial));
  const [error, setError] = useState('');
  const confirm = () => {
    const date = parseDate(text);
    if (date == null) return setError('Date attendue au format JJ/MM/AAAA');
    props.onConfirm(date);
  };
  return (
    <div className="modal-backdrop">
      <Dialog
        title={PROJECT_MESSAGES.intermediateFeedbackTitle}
        testId="feedback-date-dialog"
        onCancel={props.onCancel}
        actions={
          <DialogActions onCancel={props.onCancel} confirm={{ label: PROJECT_MESSAGES.confirm, onClick: confirm, testId: 'feedback-date-confirm' }} />
        }
      >
        <label>
          Date (JJ/MM/AAAA){' '}
          <input
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={(event) => event.key === 'Enter' && confirm()}
            data-testid="feedback-date-input"
            autoFocus
          />
        </label>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
      </Dialog>
    </div>
  );
}

/** 'Associer une publicité': adverts of the type the target's type searches. */
export function AdvertSearchDialog(props: { type: string; onCancel(): void; onChoose(advertId: number): void }) {
  const search = useSetAtom(searchAdvertsAtom);
  const [term, setTerm] = useState('');
  const query = useQuery(['projects.adverts', term, props.type], async () => ({ term, found: await search({ term, type: props.type }) }), {
    debounceMs: 250,
  });
  const results = query.data?.found ?? [];
  // The term the results answer: 'Aucun résultat' once its search came back empty, not while it runs.
  const answered = query.data?.term ?? null;
  return (
    <div className="modal-backdrop">
      <Dialog
        title={PROJECT_MESSAGES.searchAdvertTitle}
        testId="advert-search-dialog"
        onCancel={props.onCancel}
        actions={<DialogActions onCancel={props.onCancel} />}
      >
        <input type="search" aria-label="Rechercher une publicité" value={term} onChange={(event) => setTerm(event.target.value)} autoFocus />
        <ul className="advert-search-results" data-testid="advert-search-results">
          {results.map((advert) => (
            <li key={advert.id}>
              <button type="button" className="link" onClick={() => props.onChoose(advert.id)}>
                {advert.id} — {advert.name}
              </button>
            </li>
          ))}
        </ul>
        {answered === term && results.length === 0 && (
          <p className="muted" data-testid="advert-search-no-result">
            {PROJECT_MESSAGES.noResult}
          </p>
        )}
      </Dialog>
    </div>
  );
}
