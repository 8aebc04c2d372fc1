import type { ReactNode } from 'react';
import type { StoryScreen } from '@shared/contract/content';
import { invalidColourFields, SCREEN_COLOUR_FIELDS } from '@shared/rules/story';
import { FieldError } from '../fields';
import { CONTENT_FIELD_MESSAGES } from '@shared/messages/content-fields';
import { isContentUrl } from '@shared/rules/content-urls';
import { ColourField } from './ColourField';

/** The texts, link and colours of the selected screen (a red warning on an invalid colour); `children` adds its media. */
export function ScreenFields(props: { screen: StoryScreen; onChange: (change: Partial<StoryScreen>) => void; children?: ReactNode }) {
  const badLink = !isContentUrl(props.screen.link, 'link');
  return (
    <div className="story-screen-fields" data-testid="story-screen-fields" data-screen-id={props.screen.id}>
      <label className="field">
        <span className="field-label">Titre de l'écran</span>
        <input value={props.screen.title} onChange={(event) => props.onChange({ title: event.target.value })} data-testid="screen-title" />
      </label>
      <label className="field">
        <span className="field-label">Sous-titre de l'écran</span>
        <input value={props.screen.subtitle} onChange={(event) => props.onChange({ subtitle: event.target.value })} data-testid="screen-subtitle" />
      </label>
      <label className="field" data-field="story.screens.link">
        <span className="field-label">Lien</span>
        <input
          type="url"
          value={props.screen.link}
          placeholder="https://"
          aria-invalid={badLink || undefined}
          onChange={(event) => props.onChange({ link: event.target.value.trim() })}
          data-testid="screen-link"
        />
        {/* An address field holds an address (docs/content.md, address fields): said at the field, by its label. */}
        {badLink && (
          <span className="field-hint">
            <FieldError field="screen-link" message={CONTENT_FIELD_MESSAGES.invalidLink('Lien')} />
          </span>
        )}
      </label>
      <label className="field">
        <span className="field-label">Texte du bouton</span>
        <input
          value={props.screen.footerButtonText}
          onChange={(event) => props.onChange({ footerButtonText: event.target.value })}
          data-testid="screen-footerButtonText"
        />
      </label>
      <div className="story-colours">
        {SCREEN_COLOUR_FIELDS.map((field) => (
          <ColourField
            key={field}
            field={field}
            value={props.screen[field] ?? ''}
            invalid={invalidColourFields(props.screen).includes(field)}
            onChange={(value) => props.onChange({ [field]: value })}
          />
        ))}
      </div>
      {props.children}
    </div>
  );
}
