import { notice } from '@shared/messages/notice';
import { Checkbox, Section, TextInput } from '../fields';
import { StoryLogoUpload, StoryScreenMedia } from '../story/StoryScreenMedia';
import { ColourWarning } from '../story/ColourWarning';
import { StoryScreensEditor } from '../story/StoryScreensEditor';
import { isValidStoryColour } from '@shared/rules/story';
import type { StoryScreensApi } from '../types';
import { emptyStory, type SectionProps } from './section-props';

/** Call to action of a story (§2.2 'CTA', story only), with the story screen editor. */
export function CtaSection({
  draft,
  patch,
  kind,
  readOnly,
  onResetStory,
  storyScreens,
}: SectionProps & { readOnly: boolean; onResetStory?: () => void; storyScreens?: StoryScreensApi }) {
  const story = draft.story ?? emptyStory();
  const cta =
    draft.callToAction ??
    (kind === 'article'
      ? { text: '', textColor: '#FFFFFF', backgroundColor: '#C41723' }
      : { text: '', textColor: '#14213D', backgroundColor: '#F0F2F5' });
  return (
    <Section id="cta" title="CTA">
      <div className="grid-2">
        <TextInput field="story.title" label="Titre de la story" value={story.title} onChange={(title) => patch({ story: { ...story, title } })} />
        <TextInput
          field="story.subtitle"
          label="Sous-titre de la story"
          value={story.subtitle}
          onChange={(subtitle) => patch({ story: { ...story, subtitle } })}
        />
        <TextInput
          field="callToAction.text"
          label="Texte du bouton"
          value={cta.text}
          onChange={(text) => patch({ callToAction: { ...cta, text } })}
        />
        <TextInput
          field="callToAction.textColor"
          label="Couleur du texte"
          value={cta.textColor}
          hint={!cta.textColor || isValidStoryColour(cta.textColor) ? undefined : <ColourWarning field="callToAction.textColor" />}
          onChange={(textColor) => patch({ callToAction: { ...cta, textColor } })}
        />
        <TextInput
          field="callToAction.backgroundColor"
          label="Couleur du fond"
          value={cta.backgroundColor}
          hint={!cta.backgroundColor || isValidStoryColour(cta.backgroundColor) ? undefined : <ColourWarning field="callToAction.backgroundColor" />}
          onChange={(backgroundColor) => patch({ callToAction: { ...cta, backgroundColor } })}
        />
      </div>
      <Checkbox
        field="story.forward"
        label="Avance automatique"
        checked={story.forward}
        onChange={(forward) => patch({ story: { ...story, forward } })}
      />
      {kind === 'advert' && draft.id !== undefined && !readOnly && <StoryLogoUpload advertId={draft.id} draft={draft} patch={patch} />}
      {/* Story screens (§2.3): story/. */}
      <StoryScreensEditor
        draft={draft}
        patch={patch}
        api={storyScreens}
        readOnly={readOnly}
        media={
          kind === 'advert' && draft.id !== undefined
            ? (screen, change, stored) => <StoryScreenMedia advertId={draft.id!} screen={screen} onChange={change} onStored={stored} />
            : undefined
        }
      />
      {onResetStory && !readOnly && draft.id !== undefined && (
        <button type="button" className="secondary" onClick={onResetStory} data-testid="story-reset">
          Réinitialiser l'expiration de la story
        </button>
      )}
    </Section>
  );
}

/** The notice of a story whose expiration was reset, the server's text in it. */
export const storyResetNotice = (text: string) => notice(text, 'success', 4500);
