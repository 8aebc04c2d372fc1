import { PUSH_MESSAGES as M } from '@shared/messages/push';
import { PROFESSIONS, SPECIALTIES } from '@shared/reference';
import { AREAS, OPERATING_SYSTEMS, TITLES } from '@shared/rules/audiences';
import { EXPERT_CHOICES, type ExpertChoice } from '@shared/rules/push';
import type { PushForm } from './form';

const EXPERT_LABELS: Record<ExpertChoice, string> = { all: M.expertAll, experts: M.expertOnly, 'not-experts': M.expertNot };

function MultiSelect<T extends string | number>(props: {
  label: string;
  options: readonly { value: T; label: string }[];
  value: T[];
  onChange: (value: T[]) => void;
  testId: string;
  size?: number;
}) {
  return (
    <label className="field">
      <span className="field-label">{props.label}</span>
      <select
        multiple
        size={props.size ?? Math.min(4, props.options.length)}
        value={props.value.map(String)}
        onChange={(event) => {
          const chosen = new Set([...event.target.selectedOptions].map((option) => option.value));
          props.onChange(props.options.filter((option) => chosen.has(String(option.value))).map((option) => option.value));
        }}
        data-testid={props.testId}
      >
        {props.options.map((option) => (
          <option key={option.value} value={String(option.value)}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

const named = <T extends string | number>(values: readonly T[]) => values.map((value) => ({ value, label: String(value) }));

/**
 * The targeting selectors of platform.md §2: OS, Area (french by default), Title, Profession, Spécialité, Experts,
 * and the security clause (the filter language, see the README); a server message about a field shows under it.
 */
export function TargetingFields(props: {
  form: PushForm;
  change: (patch: Partial<PushForm>) => void;
  errors: Partial<Record<keyof PushForm, string>>;
}) {
  const { form, change, errors } = props;
  return (
    <fieldset className="push-targeting">
      <MultiSelect label={M.os} options={named(OPERATING_SYSTEMS)} value={form.os} onChange={(os) => change({ os })} testId="push-os" size={2} />
      <label className={errors.area ? 'field invalid' : 'field'}>
        <span className="field-label">{M.area}</span>
        <select value={form.area} onChange={(event) => change({ area: event.target.value })} data-testid="push-area">
          {AREAS.map((area) => (
            <option key={area} value={area}>
              {area}
            </option>
          ))}
        </select>
        {errors.area && <span className="field-error">{errors.area}</span>}
      </label>
      <MultiSelect
        label={M.titles}
        options={named(TITLES)}
        value={form.titles}
        onChange={(titles) => change({ titles })}
        testId="push-titles"
        size={3}
      />
      <MultiSelect
        label={M.profession}
        options={PROFESSIONS.map((item) => ({ value: item.id, label: item.name }))}
        value={form.professions}
        onChange={(professions) => change({ professions })}
        testId="push-professions"
      />
      <MultiSelect
        label={M.specialty}
        options={SPECIALTIES.map((item) => ({ value: item.id, label: item.name }))}
        value={form.specialties}
        onChange={(specialties) => change({ specialties })}
        testId="push-specialties"
      />
      <label className="field">
        <span className="field-label">{M.experts}</span>
        <select value={form.expert} onChange={(event) => change({ expert: event.target.value as ExpertChoice })} data-testid="push-expert">
          {EXPERT_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {EXPERT_LABELS[choice]}
            </option>
          ))}
        </select>
      </label>
      <label className={errors.clause ? 'field push-clause invalid' : 'field push-clause'}>
        <span className="field-label">{M.clause}</span>
        <textarea
          rows={2}
          value={form.clause}
          placeholder={M.clauseHelp}
          onChange={(event) => change({ clause: event.target.value })}
          aria-invalid={errors.clause ? true : undefined}
          data-testid="push-clause"
        />
        {errors.clause && (
          <span className="field-error" data-testid="push-clause-error">
            {errors.clause}
          </span>
        )}
      </label>
    </fieldset>
  );
}
