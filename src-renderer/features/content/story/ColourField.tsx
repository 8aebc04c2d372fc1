import { toColourPickerValue, type ScreenColourField } from '@shared/rules/story';
import { ColourWarning } from './ColourWarning';

const COLOUR_LABELS: Record<ScreenColourField, string> = {
  titleColor: 'Couleur du titre',
  subtitleColor: 'Couleur du sous-titre',
  backgroundColor: 'Couleur du fond',
  footerButtonTextColor: 'Couleur du texte du bouton',
  footerChevronColor: 'Couleur du chevron',
  footerBgColor: 'Couleur du pied',
};

/** One colour of a screen: its text (#rgb / #rrggbb), a picker when the text is valid, and the warning otherwise. */
export function ColourField(props: { field: ScreenColourField; value: string; invalid: boolean; onChange: (value: string) => void }) {
  const picker = toColourPickerValue(props.value);
  return (
    <label className={`field story-colour${props.invalid ? ' invalid' : ''}`} data-field={`screen.${props.field}`}>
      <span className="field-label">{COLOUR_LABELS[props.field]}</span>
      <span className="inline">
        <input
          type="color"
          value={picker ?? '#000000'}
          aria-label={`${COLOUR_LABELS[props.field]} (sélecteur)`}
          onChange={(event) => props.onChange(event.target.value.toUpperCase())}
          data-testid={`screen-colour-picker-${props.field}`}
        />
        <input
          type="text"
          value={props.value}
          maxLength={20}
          aria-invalid={props.invalid || undefined}
          onChange={(event) => props.onChange(event.target.value)}
          data-testid={`screen-colour-${props.field}`}
        />
        {props.invalid && <ColourWarning field={props.field} />}
      </span>
    </label>
  );
}
