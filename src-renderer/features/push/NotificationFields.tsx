import { useSetAtom } from 'jotai';
import { PUSH_MESSAGES as M } from '@shared/messages/push';
import { modalAtom } from '../../lib/modal';
import { TextField } from '../../ui/TextField';
import { DeeplinkDialog } from '../content';
import type { PushForm } from './form';

/** Title, body text, link or deeplink (the advert editor's deeplink generator can fill it) and customId. */
export function NotificationFields(props: {
  form: PushForm;
  change: (patch: Partial<PushForm>) => void;
  errors: Partial<Record<keyof PushForm, string>>;
}) {
  const { form, change, errors } = props;
  const setModal = useSetAtom(modalAtom);
  const openGenerator = () =>
    setModal(
      <DeeplinkDialog
        onClose={() => setModal(null)}
        onUse={(url) => {
          change({ navigation: url });
          setModal(null);
        }}
      />,
    );
  return (
    <fieldset className="push-notification">
      <TextField label={M.notificationTitle} value={form.title} onChange={(title) => change({ title })} error={errors.title} testId="push-title" />
      <label className={errors.body ? 'field invalid' : 'field'}>
        <span className="field-label">{M.body}</span>
        <textarea rows={3} value={form.body} onChange={(event) => change({ body: event.target.value })} data-testid="push-body" />
        {errors.body && (
          <span className="field-error" data-testid="push-body-error">
            {errors.body}
          </span>
        )}
      </label>
      <div className="push-navigation">
        <TextField
          label={M.navigation}
          value={form.navigation}
          onChange={(navigation) => change({ navigation })}
          error={errors.navigation}
          testId="push-navigation"
        />
        <button type="button" className="secondary" onClick={openGenerator} data-testid="push-deeplink">
          {M.deeplink}
        </button>
      </div>
      <TextField
        label={M.customId}
        value={form.customId}
        onChange={(customId) => change({ customId })}
        error={errors.customId}
        testId="push-custom-id"
      />
    </fieldset>
  );
}
