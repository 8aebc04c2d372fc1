import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { ADVERT_SCREEN_MESSAGES as M, ADVERT_SCREEN_NOTICES as N } from '@shared/messages/advert-screens';
import { notice } from '@shared/messages/notice';
import { DEFAULT_FOOTNOTES, FOOTNOTE_LANGUAGES, openInChoices, SEARCH_TABS, TAGLINE_TRUNCATION, validateLabelFor } from '@shared/rules/advert-model';
import { AUDIENCE_SEARCH_DEBOUNCE_MS, AUDIENCE_SEARCH_LIMIT, isSearchableAudienceTerm } from '@shared/rules/advert-screens/audience-search';
import { ADVERT_TYPES, ARTICLE_TYPES } from '@shared/rules/advert-screens/content-types';
import { canSearchAudiences } from '@shared/rules/advert-screens/editor-sections';
import { notificationAutoStop } from '@shared/rules/advert-screens/notification-stop';
import { newQuestion, withSource, type QuizQuestion } from '@shared/rules/advert-screens/quiz';
import { weightDisplay, WEIGHT_MAX, WEIGHT_MIN } from '@shared/rules/advert-screens/weight';
import { isExpertAudience } from '@shared/rules/publication';
import { contentAdminFieldWriters } from '@shared/access-rules';
import { isAllowed } from '@shared/roles';
import { isDeeplinkUrl } from '@shared/rules/deeplink';
import { scheduleErrors } from '@shared/rules/schedule';
import { contentFieldLabel } from '@shared/messages/content-fields';
import { apiAtom } from '../../lib/bridge';
import { raiseNoticeAtom } from '../../lib/notices';
import { useAdjustOnChange } from '../../lib/render-state';
import { ADVERT_MEDIA_NOTICES as MEDIA_NOTICES } from '@shared/messages/advert-media';
import { BannerImageField, MediaFields } from './MediaFields';
import { Checkbox, DateTimeInput, Field, NumberInput, Section, Select, TextInput } from './fields';
import { StoryLogoUpload, StoryScreenMedia } from './story/StoryScreenMedia';
import { ColourWarning, StoryScreensEditor, type StoryScreensApi } from './story/StoryScreensEditor';
import { isValidStoryColour } from '@shared/rules/story';
import type { ContentItem, ContentKind } from './types';

export interface SectionProps {
  draft: ContentItem;
  patch: (patch: Partial<ContentItem>) => void;
  kind: ContentKind;
  roles: readonly string[];
}

const options = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

/** The audience type an advert type is targeted with (audiences §3 types). */
function audienceTypeOf(type: string | null | undefined): string | undefined {
  if (type === 'post' || type === 'video' || type === 'quiz') return 'timeline';
  if (type === 'search' || type === 'story' || type === 'notification' || type === 'banner' || type === 'tool') return type;
  return undefined;
}

/** A new quiz, its validate label following the footnote language (§3 Quiz). */
function emptyQuiz(footNote: string | null | undefined) {
  return {
    questions: [] as QuizQuestion[],
    allowMultipleAnswers: false,
    link: '',
    isSurvey: false,
    votersCount: 0,
    votersCountDefault: 0,
    answerButtonLabel: 'En savoir plus',
    validateButtonLabel: validateLabelFor(footNote),
    hasAnswered: false,
    answeredIds: [] as number[],
  };
}

export function GeneralSection({ draft, patch, kind, readOnly }: SectionProps & { readOnly: boolean }) {
  const type = draft.type ?? '';
  const openIn = openInChoices(type);
  return (
    <Section id="general" title={kind === 'advert' ? 'Général' : 'General'} defaultOpen>
      <div className="grid-2">
        <TextInput field="name" label="Nom" value={draft.name} onChange={(name) => patch({ name })} />
        <Select
          field="type"
          label="Type"
          value={draft.type}
          empty={kind === 'advert' ? '—' : undefined}
          options={options(kind === 'advert' ? ADVERT_TYPES : ARTICLE_TYPES)}
          onChange={(next) => patch({ type: next, ...(next === 'quiz' && !draft.quiz ? { quiz: emptyQuiz(draft.footNote) } : {}) })}
        />
      </div>
      <Field field="weight" label="Poids d'affichage" hint={<span data-testid="weight-display">{weightDisplay(draft.weight)}</span>}>
        <input
          type="range"
          min={WEIGHT_MIN}
          max={WEIGHT_MAX}
          step={1}
          value={draft.weight ?? 5}
          onChange={(event) => patch({ weight: Number(event.target.value) })}
          data-testid="field-weight"
        />
      </Field>
      <div className="grid-2">
        <NumberInput field="maxViews" label="Vues max par utilisateur" value={draft.maxViews} min={0} onChange={(maxViews) => patch({ maxViews })} />
        {openIn.length > 0 && (
          <Select
            field="openIn"
            label="Ouverture"
            value={draft.openIn}
            empty="—"
            options={options(openIn)}
            onChange={(value) => patch({ openIn: value as ContentItem['openIn'] })}
          />
        )}
      </div>
      {kind === 'advert' && <Checkbox field="isFree" label="Gratuit" checked={draft.isFree} onChange={(isFree) => patch({ isFree })} />}
      {kind === 'article' && (
        <div className="grid-2">
          <Checkbox field="isPinned" label="Épinglé" checked={draft.isPinned} onChange={(isPinned) => patch({ isPinned })} />
          <Checkbox field="isNew" label="Nouveau" checked={draft.isNew} onChange={(isNew) => patch({ isNew })} />
          <TextInput
            field="tag.text"
            label="Tag"
            value={draft.tag?.text}
            onChange={(text) => patch({ tag: { tagColor: draft.tag?.tagColor ?? '#66627E', text } })}
          />
          <TextInput
            field="tag.tagColor"
            label="Couleur du tag"
            value={draft.tag?.tagColor}
            onChange={(tagColor) => patch({ tag: { text: draft.tag?.text ?? 'Tag', tagColor } })}
          />
        </div>
      )}
      {type === 'story' && (
        <NumberInput
          field="story.position"
          label="Position de la story"
          value={draft.story?.position}
          min={0}
          onChange={(position) => patch({ story: { ...(draft.story ?? emptyStory()), position } })}
        />
      )}
      {kind === 'advert' && (
        <Checkbox
          field="promoteInSearch"
          label="Promouvoir dans la recherche"
          checked={draft.promoteInSearch}
          onChange={(promoteInSearch) => patch({ promoteInSearch })}
        />
      )}
      {kind === 'advert' && (type === 'search' || draft.promoteInSearch) && (
        <div className="grid-2">
          <NumberInput
            field="search.position"
            label="Position dans la recherche"
            value={draft.search?.position}
            min={0}
            onChange={(position) => patch({ search: { tabs: draft.search?.tabs ?? [], association: draft.search?.association ?? null, position } })}
          />
          <Field field="search.tabs" label="Onglets">
            <span className="checkbox-row">
              {SEARCH_TABS.map((tab) => {
                const tabs = draft.search?.tabs ?? [];
                return (
                  <label key={tab} className="checkbox">
                    <input
                      type="checkbox"
                      checked={tabs.includes(tab)}
                      onChange={(event) =>
                        patch({
                          search: {
                            position: draft.search?.position ?? null,
                            association: draft.search?.association ?? null,
                            tabs: event.target.checked ? [...tabs, tab] : tabs.filter((entry) => entry !== tab),
                          },
                        })
                      }
                      data-testid={`field-search.tabs-${tab}`}
                    />
                    {tab}
                  </label>
                );
              })}
            </span>
          </Field>
        </div>
      )}
      {kind === 'advert' && type === 'tool' && (
        <TextInput field="sonataId" label="Sonata ID (id externe de l'outil)" value={draft.sonataId} onChange={(sonataId) => patch({ sonataId })} />
      )}
      {kind === 'advert' && type === 'banner' && (
        <>
          <TextInput field="bannerLink" label="Lien de la bannière" value={draft.bannerLink} onChange={(bannerLink) => patch({ bannerLink })} />
          <BannerImageField draft={draft} patch={patch} readOnly={readOnly} />
        </>
      )}
    </Section>
  );
}

function emptyStory() {
  return { logo: null, title: '', subtitle: '', position: null, forward: false, screens: [], isSeen: false, resetAt: null };
}

type AudienceOption = { id: number; name: string; roles: string[]; area?: string };

/**
 * Audiences (§2.2): a new advert only says to save first; the search box is for CSM, CSM_LEAD and ADMIN (≥ 2
 * characters, 320 ms, 120 results for adverts and 25 for articles, the §5 ignore rules).
 */
export function AudiencesSection({ draft, patch, kind, roles, readOnly }: SectionProps & { readOnly: boolean }) {
  const call = useAtomValue(apiAtom);
  const raise = useSetAtom(raiseNoticeAtom);
  const [term, setTerm] = useState('');
  const [found, setFound] = useState<AudienceOption[]>([]);
  const attached = draft._$audiences ?? [];
  const searchable = canSearchAudiences(roles) && !readOnly;
  const searching = searchable && isSearchableAudienceTerm(term);
  // The last answer while the term is searchable, without the audiences already attached (derived, not cleared by
  // an effect): an attached audience is not offered again.
  const results = searching ? found.filter((audience) => !attached.some((entry) => entry.id === audience.id)) : [];

  useEffect(() => {
    if (!searching) return;
    let stale = false;
    const timer = setTimeout(async () => {
      const type = kind === 'advert' ? audienceTypeOf(draft.type) : undefined;
      const limit = AUDIENCE_SEARCH_LIMIT[kind];
      const result = await call('audiences.search', { query: { term: term.trim(), limit, ...(type ? { type: type as never } : {}) } });
      if (stale) return;
      if (!result.ok) return raise(N.audienceSearchFailed(result.errorMsg));
      setFound(result.data);
    }, AUDIENCE_SEARCH_DEBOUNCE_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [term, searching, kind, draft.type, call, raise]);

  if (kind === 'advert' && draft.id === undefined) {
    return (
      <Section id="audiences" title="Audiences" defaultOpen>
        <p className="muted" data-testid="audiences-save-first">
          {M.saveToAttachAudience}
        </p>
      </Section>
    );
  }

  const add = (audience: AudienceOption) => {
    if (attached.some((entry) => entry.id === audience.id)) return;
    patch({ _$audiences: [...attached, { id: audience.id, name: audience.name, roles: audience.roles, label: audience.area ?? '' }] });
  };
  const remove = (id: number) => patch({ _$audiences: attached.filter((entry) => entry.id !== id) });

  return (
    <Section id="audiences" title={kind === 'advert' ? 'Audiences' : 'Audience'} defaultOpen>
      <ul className="attached-audiences" data-testid="attached-audiences" data-field="_$audiences">
        {attached.length === 0 && <li className="muted">Aucune audience associée</li>}
        {attached.map((audience) => (
          <li key={audience.id} className="tag" data-testid={`attached-audience-${audience.id}`}>
            {audience.name}
            {!isExpertAudience(audience) && <span className="badge warning">non expert</span>}
            {!readOnly && (
              <button
                type="button"
                className="chip-remove"
                aria-label={`Retirer ${audience.name}`}
                onClick={() => remove(audience.id)}
                data-testid={`detach-audience-${audience.id}`}
              >
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
      {searchable && (
        <div className="audience-search">
          <input
            type="search"
            placeholder="Rechercher une audience..."
            aria-label="Rechercher une audience"
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            data-testid="audience-search"
          />
          {results.length > 0 && (
            <ul className="search-results" data-testid="audience-results">
              {results.map((audience) => (
                <li key={audience.id}>
                  <button type="button" className="link" onClick={() => add(audience)} data-testid={`audience-result-${audience.id}`}>
                    {audience.name}
                  </button>
                  <span className="muted"> {audience.roles.join(', ')}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Section>
  );
}

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

/** Tracking (§2.2): ADMIN only, not for story; the pixel must be one the technical team validated (warning only). */
export function TrackingSection({ draft, patch }: SectionProps) {
  return (
    <Section id="tracking" title="Tracking">
      <TextInput
        field="pixelTrackingUrl"
        label="URL du pixel de tracking"
        value={draft.pixelTrackingUrl}
        onChange={(pixelTrackingUrl) => patch({ pixelTrackingUrl: pixelTrackingUrl || null })}
      />
      <p className="alert warning" data-testid="tracking-warning">
        {M.trackingPixelWarning}
      </p>
    </Section>
  );
}

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

/** Quiz (§2.2 'Quizz', quiz only): questions numbered count + 1; ADMIN alone sees the starting voters count. */
export function QuizSection({ draft, patch, roles }: SectionProps) {
  const quiz = draft.quiz ?? emptyQuiz(draft.footNote);
  const setQuiz = (change: Partial<typeof quiz>) => patch({ quiz: { ...quiz, ...change } });
  const questions = quiz.questions as QuizQuestion[];
  const setQuestion = (id: number, change: Partial<QuizQuestion>) =>
    setQuiz({ questions: questions.map((question) => (question.id === id ? { ...question, ...change } : question)) });
  return (
    <Section id="quiz" title="Quizz">
      <ol className="quiz-questions" data-testid="quiz-questions">
        {questions.map((question) => (
          <li key={question.id} data-testid={`quiz-question-${question.id}`}>
            <input
              value={question.answer}
              placeholder={`Réponse ${question.id}`}
              onChange={(event) => setQuestion(question.id, { answer: event.target.value })}
              data-testid={`quiz-answer-${question.id}`}
            />
            <label className="checkbox">
              <input
                type="checkbox"
                checked={question.correct}
                onChange={(event) => setQuestion(question.id, { correct: event.target.checked })}
                data-testid={`quiz-correct-${question.id}`}
              />
              Bonne réponse
            </label>
            <span className="muted">{question.percentage} %</span>
            <button
              type="button"
              className="link danger"
              onClick={() => setQuiz({ questions: questions.filter((entry) => entry.id !== question.id) })}
              data-testid={`quiz-remove-${question.id}`}
            >
              Retirer
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="secondary"
        onClick={() => setQuiz({ questions: [...questions, newQuestion(questions)] })}
        data-testid="quiz-add"
      >
        Ajouter une réponse
      </button>
      <div className="grid-2">
        <Checkbox
          field="quiz.allowMultipleAnswers"
          label="Plusieurs réponses possibles"
          checked={quiz.allowMultipleAnswers}
          onChange={(allowMultipleAnswers) => setQuiz({ allowMultipleAnswers })}
        />
        <Checkbox
          field="quiz.isSurvey"
          label="Sondage (pas de bonne réponse)"
          checked={quiz.isSurvey}
          onChange={(isSurvey) => setQuiz({ isSurvey })}
        />
        <TextInput field="quiz.link" label="Lien du quiz" value={quiz.link} onChange={(link) => setQuiz({ link: link.trim() })} />
        <TextInput
          field="quiz.answerButtonLabel"
          label="Libellé après réponse"
          value={quiz.answerButtonLabel}
          onChange={(answerButtonLabel) => setQuiz({ answerButtonLabel })}
        />
        <TextInput
          field="quiz.validateButtonLabel"
          label="Libellé du bouton valider"
          value={quiz.validateButtonLabel}
          onChange={(validateButtonLabel) => setQuiz({ validateButtonLabel })}
        />
        {isAllowed(contentAdminFieldWriters, roles) && (
          <NumberInput
            field="quiz.votersCountDefault"
            label="Nombre de votants de départ"
            value={quiz.votersCountDefault}
            min={0}
            onChange={(votersCountDefault) => setQuiz({ votersCountDefault: votersCountDefault ?? 0 })}
          />
        )}
      </div>
    </Section>
  );
}

export function SharingSection({ draft, patch, kind }: SectionProps) {
  const sharing = draft.sharing ?? { enableLikes: true, enableBookmarking: true, enableSharing: true, sharingLink: '', sharingMessage: '' };
  const set = (change: Partial<typeof sharing>) => patch({ sharing: { ...sharing, ...change } });
  return (
    <Section id="sharing" title={kind === 'advert' ? 'Options de partage' : 'Sharing options'}>
      <div className="grid-2">
        <Checkbox field="sharing.enableLikes" label="J'aime" checked={sharing.enableLikes} onChange={(enableLikes) => set({ enableLikes })} />
        <Checkbox
          field="sharing.enableBookmarking"
          label="Favoris"
          checked={sharing.enableBookmarking}
          onChange={(enableBookmarking) => set({ enableBookmarking })}
        />
        <Checkbox
          field="sharing.enableSharing"
          label="Partage"
          checked={sharing.enableSharing}
          onChange={(enableSharing) => set({ enableSharing })}
        />
      </div>
      <div className="grid-2">
        <TextInput field="sharing.sharingLink" label="Lien de partage" value={sharing.sharingLink} onChange={(sharingLink) => set({ sharingLink })} />
        <TextInput
          field="sharing.sharingMessage"
          label="Message de partage"
          value={sharing.sharingMessage}
          onChange={(sharingMessage) => set({ sharingMessage })}
        />
      </div>
    </Section>
  );
}

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

export const storyResetNotice = (text: string) => notice(text, 'success', 4500);
