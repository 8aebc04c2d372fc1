import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { ADVERT_SCREEN_NOTICES as N } from '@shared/messages/advert-screens';
import { DEFAULT_FOOTNOTES, FOOTNOTE_LANGUAGES, TAGLINE_TRUNCATION, validateLabelFor } from '@shared/rules/advert-model';
import { withSource } from '@shared/rules/advert-screens/quiz';
import { isDeeplinkUrl } from '@shared/rules/deeplink';
import { contentFieldLabel } from '@shared/messages/content-fields';
import { apiAtom } from '../../../lib/bridge';
import { raiseNoticeAtom } from '../../../lib/notices';
import { ADVERT_MEDIA_NOTICES as MEDIA_NOTICES } from '@shared/messages/advert-media';
import { MediaFields } from '../MediaFields';
import { Checkbox, Field, Section, TextInput } from '../fields';
import type { SectionProps } from './section-props';

/** Visuals and texts (§2.2 'Visuels et descriptifs'): URL pre-fill, media addresses, texts. */
export function VisualsSection({ draft, patch, kind, readOnly }: SectionProps & { readOnly: boolean }) {
  const call = useAtomValue(apiAtom);
  const raise = useSetAtom(raiseNoticeAtom);
  const [url, setUrl] = useState('');
  const [fetching, setFetching] = useState(false);
  const tagline = draft.tagline ?? '';

  async function prefill() {
    if (!isDeeplinkUrl(url)) return raise(N.urlInvalid);
    setFetching(true);
    const result = await call('url.parse', { query: { url: url.trim() } });
    setFetching(false);
    if (!result.ok) return raise(N.urlPrefillFailed(result.errorMsg));
    const page = result.data;
    // An image or logo whose address answers no image cannot be uploaded: warned, and not taken (spec §8).
    const imageOk = Boolean(page.image) && !page.unavailable?.includes('image');
    const logoOk = Boolean(page.logo) && !page.unavailable?.includes('logo');
    const missing = [...(logoOk ? [] : ['logo']), ...(imageOk ? [] : ['image'])];
    patch({
      ...withSource(draft, url),
      title: page.title || draft.title,
      description: page.description || draft.description,
      author: page.author || draft.author,
      ...(logoOk ? { logo: page.logo } : {}),
      ...(imageOk ? { image: page.image, images: [page.image!] } : {}),
    });
    raise(N.prefillDone(missing));
    if (page.image && !imageOk) raise(MEDIA_NOTICES.prefillImageNotUploadable);
    if (page.logo && !logoOk) raise(MEDIA_NOTICES.prefillLogoNotUploadable);
  }

  return (
    <Section id="visuals" title={kind === 'advert' ? 'Visuels et descriptifs' : 'Visuals and descriptions'} defaultOpen>
      {!readOnly && (
        <div className="prefill">
          <Field field="prefillUrl" label="Pré-remplir depuis une URL">
            <span className="inline">
              <input type="url" value={url} placeholder="https://" onChange={(event) => setUrl(event.target.value)} data-testid="prefill-url" />
              <button type="button" className="secondary" disabled={fetching || !url.trim()} onClick={() => void prefill()} data-testid="prefill-run">
                {fetching ? 'Patientez...' : 'Pré-remplir'}
              </button>
            </span>
          </Field>
        </div>
      )}
      <MediaFields draft={draft} patch={patch} kind={kind} readOnly={readOnly} />
      <div className="grid-2">
        <TextInput
          field="logo"
          label={contentFieldLabel('logo')}
          placeholder="https://"
          value={draft.logo}
          onChange={(logo) => patch({ logo: logo || null })}
        />
        <TextInput
          field="images"
          label={contentFieldLabel('images')}
          placeholder="Une adresse https:// par ligne"
          multiline
          value={(draft.images ?? []).join('\n')}
          onChange={(value) =>
            patch({
              images: value
                .split('\n')
                .map((line) => line.trim())
                .filter(Boolean),
            })
          }
        />
        {draft.type === 'video' && (
          <TextInput
            field="video"
            label={contentFieldLabel('video')}
            placeholder="https://"
            value={draft.video}
            onChange={(video) => patch({ video: video || null })}
          />
        )}
        <TextInput
          field="source"
          label={contentFieldLabel('source')}
          placeholder="https:// ou deeplink"
          value={draft.source}
          onChange={(source) => patch(withSource(draft, source))}
        />
        <TextInput field="author" label={contentFieldLabel('author')} value={draft.author} onChange={(author) => patch({ author })} />
        <TextInput field="title" label={contentFieldLabel('title')} value={draft.title} onChange={(title) => patch({ title })} />
        <TextInput field="subtitle" label="Sous-titre (partenariat)" value={draft.subtitle} onChange={(subtitle) => patch({ subtitle })} />
        <TextInput field="buttonLabel" label="Libellé du bouton" value={draft.buttonLabel} onChange={(buttonLabel) => patch({ buttonLabel })} />
      </div>
      <TextInput
        field="tagline"
        label="Texte principal"
        multiline
        value={tagline}
        onChange={(value) => patch({ tagline: value })}
        hint={
          draft.showReadMore && tagline.length > TAGLINE_TRUNCATION
            ? `Tronqué à ${TAGLINE_TRUNCATION} caractères avec 'Lire la suite' (${tagline.length})`
            : `${tagline.length} caractères`
        }
      />
      <TextInput
        field="description"
        label="Texte secondaire"
        multiline
        value={draft.description}
        onChange={(description) => patch({ description })}
      />
      <Field field="footNote" label="Mention légale">
        <span className="inline">
          {FOOTNOTE_LANGUAGES.map((language) => (
            <button
              key={language}
              type="button"
              className="secondary small"
              onClick={() =>
                patch({
                  footNote: DEFAULT_FOOTNOTES[language],
                  ...(draft.quiz ? { quiz: { ...draft.quiz, validateButtonLabel: validateLabelFor(DEFAULT_FOOTNOTES[language]) } } : {}),
                })
              }
              data-testid={`footnote-${language}`}
            >
              {language.toUpperCase()}
            </button>
          ))}
        </span>
        <textarea value={draft.footNote ?? ''} rows={2} onChange={(event) => patch({ footNote: event.target.value })} data-testid="field-footNote" />
      </Field>
      <Checkbox
        field="showReadMore"
        label="Afficher 'Lire la suite'"
        checked={draft.showReadMore}
        onChange={(showReadMore) => patch({ showReadMore })}
      />
    </Section>
  );
}
