import { useAtom } from 'jotai';
import type { IpcFailure } from '@shared/ipc';
import { PUSH_MESSAGES as M } from '@shared/messages/push';
import { isContentUrl } from '@shared/rules/content-urls';
import { isSending, parseClause, PUSH_BATCH_SIZE, PUSH_BODY_MAX, PUSH_CONFIRM_ABOVE, PUSH_TITLE_MAX, pushIterations } from '@shared/rules/push';
import { useConfirm } from '../../lib/modal';
import { LocalDraftOffer } from '../../ui/DraftOffer';
import { CampaignHistory } from './CampaignHistory';
import { pushBusyAtom, pushErrorsAtom, pushFormAtom, pushSentFormAtom, type PushErrors } from './atoms/composer';
import { formatCount, formFieldOf, type PushForm } from './form';
import { NotificationFields } from './NotificationFields';
import { TargetingFields } from './TargetingFields';
import { usePush } from './use-push';
import './push.css';

/** Field messages before the call (French, next to the field); the server checks the same and more. */
function localErrors(form: PushForm, notification: boolean): PushErrors {
  const errors: PushErrors = {};
  const clause = parseClause(form.clause);
  if (!clause.ok) errors.clause = clause.message;
  if (!notification) return errors;
  if (!form.title.trim()) errors.title = M.titleRequired;
  if (!form.body.trim()) errors.body = M.bodyRequired;
  else if (form.body.length > PUSH_BODY_MAX) errors.body = M.bodyTooLong;
  if (form.title.length > PUSH_TITLE_MAX) errors.title = M.titleTooLong;
  if (!isContentUrl(form.navigation, 'link')) errors.navigation = M.navigationInvalid;
  return errors;
}

/**
 * /push/create, 'Create a notification' (platform.md §2, §4; docs/push.md): the notification, its targeting, Count and
 * Send, the counters Total, Iterations and Batch size and the progress 'n / iterations', then the history.
 */
export default function PushCreatePage() {
  const [form, setForm] = useAtom(pushFormAtom);
  // What the local draft compares the form with: the empty form, then the one last sent (atoms/composer.ts).
  const [sentForm, setSentForm] = useAtom(pushSentFormAtom);
  const [errors, setErrors] = useAtom(pushErrorsAtom);
  const [busy, setBusy] = useAtom(pushBusyAtom);
  const push = usePush();
  const confirm = useConfirm();
  const sending = push.current !== null && isSending(push.current.state);

  const change = (patch: Partial<PushForm>) => {
    setForm((current) => ({ ...current, ...patch }));
    setErrors((current) => ({ ...current, ...Object.fromEntries(Object.keys(patch).map((key) => [key, undefined])) }));
    // A new targeting needs a new count before Send.
    if (Object.keys(patch).some((key) => !['title', 'body', 'navigation', 'customId'].includes(key))) push.setCounter(null);
  };
  const showFailure = (failure: IpcFailure | null) => {
    if (!failure) return;
    const field = formFieldOf(failure.field);
    setErrors(field ? { [field]: failure.errorMsg } : {});
  };

  async function count() {
    const local = localErrors(form, false);
    setErrors(local);
    if (Object.keys(local).length) return;
    showFailure(await push.count(form));
  }

  async function send() {
    const local = localErrors(form, true);
    setErrors(local);
    if (Object.keys(local).length || busy || push.counter === null) return;
    if (push.counter > PUSH_CONFIRM_ABOVE && !(await confirm(M.confirmSend.replace('{count}', formatCount(push.counter))))) return;
    setBusy(true);
    const failure = await push.send(form);
    showFailure(failure);
    // Sent: the draft has done its job.
    if (!failure) setSentForm(form);
    setBusy(false);
  }

  // The campaign being sent; otherwise the last count (or the last campaign's figures), the offset back to 0 (§4).
  const shown = sending || (push.counter === null && push.current) ? push.current : null;
  const total = shown ? shown.total : (push.counter ?? 0);
  const iterations = shown ? shown.iterations : pushIterations(total, PUSH_BATCH_SIZE);
  const done = shown && sending ? shown.done : 0;
  return (
    <section className="push-page" aria-labelledby="push-title">
      <h1 id="push-title">{M.title}</h1>
      <LocalDraftOffer<PushForm>
        recordKey="push:new"
        values={form}
        pristine={sentForm}
        version={null}
        onResume={(values) => {
          setForm(values);
          setErrors({});
          // The targeting may differ from the last count: Send needs a new one.
          push.setCounter(null);
        }}
      />
      <div className="push-form">
        <NotificationFields form={form} change={change} errors={errors} />
        <TargetingFields form={form} change={change} errors={errors} />
      </div>
      <div className="push-actions">
        <button type="button" className="secondary" onClick={() => void count()} disabled={push.counting} data-testid="push-count">
          {M.count}
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => void send()}
          disabled={!push.counter || push.counter <= 0 || sending || busy}
          data-testid="push-send"
        >
          {M.send}
        </button>
        {sending && (
          <button type="button" className="secondary" onClick={() => void push.cancel()} data-testid="push-cancel">
            {M.cancel}
          </button>
        )}
      </div>
      <dl className="push-counters">
        <div>
          <dt>{M.total}</dt>
          <dd data-testid="push-total">{formatCount(total)}</dd>
        </div>
        <div>
          <dt>{M.iterations}</dt>
          <dd data-testid="push-iterations">{iterations}</dd>
        </div>
        <div>
          <dt>{M.batchSize}</dt>
          <dd data-testid="push-batch-size">{formatCount(shown ? shown.batchSize : PUSH_BATCH_SIZE)}</dd>
        </div>
        <div>
          <dt>{M.progress}</dt>
          <dd data-testid="push-progress">{`${done} / ${iterations}`}</dd>
        </div>
      </dl>
      <CampaignHistory campaigns={push.history} />
    </section>
  );
}
