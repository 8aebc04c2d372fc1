import type { HTMLInputTypeAttribute } from 'react';

/** A labelled text input; the label is its accessible name. */
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
}) {
  return (
    <label className="field">
      <span className="field-label">{props.label}</span>
      <input
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        readOnly={props.readOnly}
        autoFocus={props.autoFocus}
        autoComplete={props.autoComplete}
        placeholder={props.placeholder}
        onChange={props.onChange ? (event) => props.onChange!(event.target.value) : undefined}
        data-testid={props.testId}
      />
    </label>
  );
}
