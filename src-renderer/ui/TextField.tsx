import { useId, type HTMLInputTypeAttribute } from 'react';

/**
 * A labelled text input; the label is its accessible name. `error` shows the field's message under it, marks the
 * input invalid and makes the message its description, so a screen reader reads it with the field.
 */
export function TextField(props: {
  label: string;
  value: string;
  onChange?: (value: string) => void;
  testId?: string;
  name?: string;
  type?: HTMLInputTypeAttribute;
  readOnly?: boolean;
  autoFocus?: boolean;
  autoComplete?: string;
  placeholder?: string;
  error?: string | null;
}) {
  const errorId = `${useId()}-error`;
  return (
    <label className={props.error ? 'field invalid' : 'field'}>
      <span className="field-label">{props.label}</span>
      <input
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        readOnly={props.readOnly}
        autoFocus={props.autoFocus}
        autoComplete={props.autoComplete}
        placeholder={props.placeholder}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? errorId : undefined}
        onChange={props.onChange ? (event) => props.onChange!(event.target.value) : undefined}
        data-testid={props.testId}
      />
      {props.error && (
        <span id={errorId} className="field-error" data-testid={props.testId ? `${props.testId}-error` : undefined}>
          {props.error}
        </span>
      )}
    </label>
  );
}
