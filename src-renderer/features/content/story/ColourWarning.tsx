import { STORY_MESSAGES as S } from '@shared/messages/story';

/** The red warning icon of an invalid colour (§2.3, §5), drawn (no emoji font needed). */
export function ColourWarning(props: { field: string }) {
  return (
    <span className="colour-warning" role="img" aria-label={S.invalidColour} title={S.invalidColour} data-testid={`colour-warning-${props.field}`}>
      <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true">
        <path d="M12 2 1 21h22L12 2z" fill="#d33a2c" />
        <path d="M12 9v5" stroke="#fff" strokeWidth="2.4" strokeLinecap="round" />
        <circle cx="12" cy="17.5" r="1.3" fill="#fff" />
      </svg>
    </span>
  );
}
