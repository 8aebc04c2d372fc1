import { useState } from 'react';
import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { notificationAutoStop } from '@shared/rules/advert-screens/notification-stop';
import { scheduleErrors } from '@shared/rules/schedule';
import { useAdjustOnChange } from '../../../lib/render-state';
import { Checkbox, DateTimeInput, Field, Section } from '../fields';
import type { ContentItem } from '../types';
import type { SectionProps } from './section-props';

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Scheduling (§2.2 'Programmation'): auto start and stop, the e-mails told of automatic publication. A
 * notification's stop follows its start (+7 days advert, +1 month article); 'Clear' empties both dates.
 */
export function SchedulingSection({ draft, patch, kind, saved }: SectionProps & { saved: ContentItem | null }) {
  // Said at the field as soon as typed (and refused at save, and by the server): a past date, a stop before the start.
  // 'Now' is read when the editor opens and at each date typed.
  const [now, setNow] = useState(nowSeconds);
  const errors = scheduleErrors(draft, saved, now);
  const errorOf = (field: string) => errors.find((error) => error.field === field)?.message ?? null;
  const options = draft.autoPublishOptions ?? { activated: false, emails: [] };
  const [emails, setEmails] = useState(options.emails.join(', '));
  // The text as typed stays; it is read again only when another item is loaded.
  useAdjustOnChange(draft.id, () => setEmails((draft.autoPublishOptions?.emails ?? []).join(', ')));
  const changeEmails = (text: string) => {
    setEmails(text);
    patch({
      autoPublishOptions: {
        ...options,
        emails: text
          .split(/[,;\s]+/)
          .map((email) => email.trim())
          .filter(Boolean),
      },
    });
  };
  return (
    <Section id="scheduling" title={kind === 'advert' ? 'Programmation' : 'Scheduling'}>
      <div className="grid-2">
        <DateTimeInput
          field="autoStartAt"
          label="Publication automatique le"
          value={draft.autoStartAt}
          error={errorOf('autoStartAt')}
          onChange={(autoStartAt) => {
            setNow(nowSeconds());
            patch({
              autoStartAt,
              ...(draft.type === 'notification' && autoStartAt !== null ? { autoStopAt: notificationAutoStop(autoStartAt, kind) } : {}),
            });
          }}
        />
        <DateTimeInput
          field="autoStopAt"
          label="Dé-publication automatique le"
          value={draft.autoStopAt}
          error={errorOf('autoStopAt')}
          onChange={(autoStopAt) => (setNow(nowSeconds()), patch({ autoStopAt }))}
        />
      </div>
      <button type="button" className="secondary small" onClick={() => patch({ autoStartAt: null, autoStopAt: null })} data-testid="schedule-clear">
        {M.clear}
      </button>
      <Checkbox
        field="autoPublishOptions.activated"
        label="Prévenir par e-mail"
        checked={options.activated}
        onChange={(activated) => patch({ autoPublishOptions: { ...options, activated } })}
      />
      <Field field="autoPublishOptions.emails" label="E-mails (séparés par des virgules)">
        <input value={emails} onChange={(event) => changeEmails(event.target.value)} data-testid="field-autoPublishOptions.emails" />
      </Field>
    </Section>
  );
}
