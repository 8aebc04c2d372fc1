import { createContext, useContext, type ReactNode } from 'react';
import { CONTENT_FIELD_MESSAGES, contentFieldLabel } from '@shared/messages/content-fields';
import { CONTENT_URL_FIELDS, isContentUrl } from '@shared/rules/content-urls';
import { fromDateTimeInput, toDateTimeInput } from '@shared/rules/dates';

/** Fields highlighted by the last failed save (§5: 3 s), read by every field of the editor. */
export const HighlightContext = createContext<readonly string[]>([]);

export function useHighlighted(field: string) {
  const highlighted = useContext(HighlightContext);
  return highlighted.includes(field);
}

/**
 * What the last refused save or publication said about each field (its French message with the label), shown at
 * the field until the field changes: keyed by the field's path without indices ('story.screens.link').
 */
export const FieldErrorsContext = createContext<Readonly<Record<string, string>>>({});

export function useFieldError(field: string): string | undefined {
  return useContext(FieldErrorsContext)[field];
}

/** A field's message in red under it; `testId` names it for the tests (`field-error-{field}`). */
export function FieldError(props: { field: string; message: string | null | undefined }) {
  if (!props.message) return null;
  return (
    <span className="field-error" role="alert" data-testid={`field-error-${props.field}`}>
      {props.message}
    </span>
  );
}

/** A labelled control of the editor; `field` names it for the validation highlight, its message and the tests. */
export function Field(props: { field: string; label: string; children: ReactNode; hint?: ReactNode; error?: string | null }) {
  const highlighted = useHighlighted(props.field);
  const fromSave = useFieldError(props.field);
  const error = props.error || fromSave;
  return (
    <label className={`field${highlighted ? ' highlighted' : ''}`} data-field={props.field} data-highlighted={highlighted || undefined}>
      <span className="field-label">{props.label}</span>
      {props.children}
      {error ? (
        <span className="field-hint">
          <FieldError field={props.field} message={error} />
        </span>
      ) : props.hint ? (
        <span className="field-hint">{props.hint}</span>
      ) : null}
    </label>
  );
}

/** What an address field holding no address says at the field (docs/content.md, address fields); null while it is fine. */
export function urlFieldError(field: string, value: string | null | undefined): string | null {
  const kind = CONTENT_URL_FIELDS[field];
  if (!kind || (value ?? '').split('\n').every((line) => isContentUrl(line, kind))) return null;
  const label = contentFieldLabel(field);
  return kind === 'link' ? CONTENT_FIELD_MESSAGES.invalidLink(label) : CONTENT_FIELD_MESSAGES.invalidUrl(label);
}

export function TextInput(props: {
  field: string;
  label: string;
  value: string | null | undefined;
  onChange: (value: string) => void;
  multiline?: boolean;
  placeholder?: string;
  hint?: ReactNode;
  type?: string;
}) {
  const testId = `field-${props.field}`;
  const urlError = urlFieldError(props.field, props.value);
  return (
    <Field field={props.field} label={props.label} hint={props.hint} error={urlError}>
      {props.multiline ? (
        <textarea
          value={props.value ?? ''}
          placeholder={props.placeholder}
          onChange={(event) => props.onChange(event.target.value)}
          data-testid={testId}
          rows={3}
        />
      ) : (
        <input
          type={props.type ?? 'text'}
          value={props.value ?? ''}
          placeholder={props.placeholder}
          onChange={(event) => props.onChange(event.target.value)}
          data-testid={testId}
        />
      )}
    </Field>
  );
}

export function NumberInput(props: {
  field: string;
  label: string;
  value: number | null | undefined;
  onChange: (value: number | null) => void;
  min?: number;
  max?: number;
}) {
  return (
    <Field field={props.field} label={props.label}>
      <input
        type="number"
        value={props.value ?? ''}
        min={props.min}
        max={props.max}
        onChange={(event) => props.onChange(event.target.value === '' ? null : Number(event.target.value))}
        data-testid={`field-${props.field}`}
      />
    </Field>
  );
}

export function Checkbox(props: { field: string; label: string; checked: boolean | null | undefined; onChange: (checked: boolean) => void }) {
  const highlighted = useHighlighted(props.field);
  return (
    <label className={`checkbox${highlighted ? ' highlighted' : ''}`} data-field={props.field}>
      <input
        type="checkbox"
        checked={Boolean(props.checked)}
        onChange={(event) => props.onChange(event.target.checked)}
        data-testid={`field-${props.field}`}
      />
      {props.label}
    </label>
  );
}

export function Select(props: {
  field: string;
  label: string;
  value: string | null | undefined;
  options: readonly { value: string; label: string }[];
  onChange: (value: string | null) => void;
  empty?: string;
}) {
  return (
    <Field field={props.field} label={props.label}>
      <select value={props.value ?? ''} onChange={(event) => props.onChange(event.target.value || null)} data-testid={`field-${props.field}`}>
        {props.empty !== undefined && <option value="">{props.empty}</option>}
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** A date and time; `error` is said under it (a scheduling date in the past, a stop before the start). */
export function DateTimeInput(props: {
  field: string;
  label: string;
  value: number | null | undefined;
  onChange: (value: number | null) => void;
  error?: string | null;
}) {
  const hint = props.error ? (
    <span className="field-error" role="alert" data-testid={`field-error-${props.field}`}>
      {props.error}
    </span>
  ) : undefined;
  return (
    <Field field={props.field} label={props.label} hint={hint}>
      <input
        type="datetime-local"
        value={toDateTimeInput(props.value)}
        aria-invalid={props.error ? true : undefined}
        onChange={(event) => props.onChange(fromDateTimeInput(event.target.value))}
        data-testid={`field-${props.field}`}
      />
    </Field>
  );
}

/** An accordion section of the editor (§2.2); its summary is the spec's section title. */
export function Section(props: { id: string; title: string; children: ReactNode; defaultOpen?: boolean }) {
  return (
    <details className="editor-section" open={props.defaultOpen} data-testid={`section-${props.id}`}>
      <summary data-testid={`section-${props.id}-toggle`}>{props.title}</summary>
      <div className="editor-section-body">{props.children}</div>
    </details>
  );
}
