/**
 * The advert and article model (adverts-articles.md §3, §4, §9): types, defaults, and the mapping of older stored
 * layouts to the latest one. Pure functions, free of zod, so that the server, the main process and the screens
 * read one model.
 */

export const ADVERT_TYPES = ['post', 'search', 'story', 'quiz', 'tool', 'notification', 'video', 'banner'] as const;
export type AdvertType = (typeof ADVERT_TYPES)[number];
export const ARTICLE_TYPES = ['post', 'video', 'quiz', 'story', 'search', 'tool', 'notification'] as const;
/** Types an advert may be converted from into an article, and back (spec §2.2, §4). */
export const CONVERTIBLE_TYPES = ['post', 'video', 'quiz', 'story'] as const;

/** Search tab ids (spec §3); 'prescription' is the other spelling of 'eprescriptions'. */
export const SEARCH_TABS = ['all', 'rcps', 'tools', 'drive', 'eprescriptions', 'prescription', 'news', 'articles'] as const;
export const OPEN_IN_VALUES = ['LINK', 'READER', 'VIDEO', 'EXTERNAL_BROWSER', 'INTERNAL_BROWSER', 'INTERNAL_WEBVIEW'] as const;
export type OpenIn = (typeof OPEN_IN_VALUES)[number];
/** Which openIn values each type offers (spec §3 openIn values). */
export function openInChoices(type: string | null | undefined): readonly OpenIn[] {
  if (type === 'search') return ['LINK', 'READER', 'VIDEO'];
  if (type === 'post' || type === 'video' || type === 'quiz') return ['EXTERNAL_BROWSER', 'INTERNAL_BROWSER', 'INTERNAL_WEBVIEW'];
  return [];
}

/** The model marker of the latest layout; anything else has not been migrated yet (spec §2.2 states). */
export const LATEST_MODEL = 'latest';

export const DEFAULT_WEIGHT = 5;
export const DEFAULT_MAX_VIEWS = 5;
export const WEIGHT_MIN = 1;
export const WEIGHT_MAX = 10;
export const DEFAULT_SUBTITLE = 'Partenariat sponsorisé';
export const DEFAULT_BUTTON_LABEL = 'Découvrir';
export const DEFAULT_ANSWER_BUTTON_LABEL = 'En savoir plus';
export const DEFAULT_TAG = { text: 'Tag', tagColor: '#66627E' } as const;
export const DEFAULT_STORY_COLOR = '#C41723';
export const DEFAULT_SCREEN_FOOTER_BUTTON_TEXT = 'VALIDER';
export const TAGLINE_TRUNCATION = 180;
export const ADVERT_FILTER_PAGE_SIZE = 50;

export const FOOTNOTE_LANGUAGES = ['fr', 'en', 'es', 'it'] as const;
export type FootnoteLanguage = (typeof FOOTNOTE_LANGUAGES)[number];

/** The default footnote in each language: the data is protected and nothing nominative reaches the partner. */
export const DEFAULT_FOOTNOTES: Record<FootnoteLanguage, string> = {
  fr: "Vos données sont protégées : aucune donnée nominative n'est transmise au partenaire.",
  en: 'Your data is protected: no personally identifiable data is shared with the partner.',
  es: 'Sus datos están protegidos: no se comparte ningún dato nominativo con el socio.',
  it: 'I tuoi dati sono protetti: nessun dato nominativo viene condiviso con il partner.',
};
export const DEFAULT_FOOTNOTE = DEFAULT_FOOTNOTES.fr;

/** The quiz validate button follows the footnote language (spec §3 Quiz). */
export const VALIDATE_LABELS: Record<FootnoteLanguage, string> = { fr: 'Valider', en: 'Validate', es: 'Validar', it: 'Validare' };

/** The language of a footnote: one of the four defaults, else guessed from a few words; French when unsure. */
export function footnoteLanguage(footNote: string | null | undefined): FootnoteLanguage {
  const text = (footNote ?? '').trim().toLowerCase();
  for (const language of FOOTNOTE_LANGUAGES) if (text === DEFAULT_FOOTNOTES[language].toLowerCase()) return language;
  if (/\b(your|data|the|is|with)\b/.test(text)) return 'en';
  if (/\b(sus|datos|están|ningún|socio)\b/.test(text)) return 'es';
  if (/\b(tuoi|dati|sono|nessun|viene)\b/.test(text)) return 'it';
  return 'fr';
}

export function validateLabelFor(footNote: string | null | undefined): string {
  return VALIDATE_LABELS[footnoteLanguage(footNote)];
}

/** Default id of a new quiz question: the question count plus one (spec §3 Quiz). */
export function nextQuestionId(questions: readonly unknown[]): number {
  return questions.length + 1;
}

/** A story screen is a video when its illustration ends in mp4, webm or ogg (spec §3 Screen). */
export function isVideoScreen(illustration: string | null | undefined): boolean {
  return /\.(mp4|webm|ogg)$/i.test((illustration ?? '').split(/[?#]/)[0]);
}

/** Story colours: '#' and 3 or 6 hex digits (spec §5). */
export function isValidColor(color: string | null | undefined): boolean {
  return typeof color === 'string' && /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(color);
}

// ---- cache busting --------------------------------------------------------------------------------------------

/**
 * Media URLs get a cache-busting `d` query parameter (spec §3), so that a replaced image under the same path is
 * fetched again. An existing `d` is replaced, never repeated; other parameters and the fragment are kept.
 */
export function withCacheBuster(url: string, version: number | string): string {
  if (!url) return url;
  const [beforeHash, ...hash] = url.split('#');
  const [path, query = ''] = beforeHash.split('?');
  const params = query.split('&').filter((part) => part && !/^d(=|$)/.test(part));
  params.push(`d=${encodeURIComponent(String(version))}`);
  return `${path}?${params.join('&')}${hash.length ? `#${hash.join('#')}` : ''}`;
}

export function withoutCacheBuster(url: string): string {
  if (!url || !url.includes('?')) return url;
  const [beforeHash, ...hash] = url.split('#');
  const [path, query = ''] = beforeHash.split('?');
  const params = query.split('&').filter((part) => part && !/^d(=|$)/.test(part));
  return `${path}${params.length ? `?${params.join('&')}` : ''}${hash.length ? `#${hash.join('#')}` : ''}`;
}

/** The media fields of a model, where cache busting applies. */
export const MEDIA_FIELDS = ['logo', 'image', 'imageSmall', 'video'] as const;

/** Applies `transform` to every media URL of an advert or article (top level, images[], story logo and screens). */
export function mapMedia<T extends Record<string, unknown>>(model: T, transform: (url: string) => string): T {
  const copy: Record<string, unknown> = { ...model };
  for (const field of MEDIA_FIELDS) if (typeof copy[field] === 'string' && copy[field]) copy[field] = transform(copy[field] as string);
  if (Array.isArray(copy.images)) copy.images = (copy.images as unknown[]).map((url) => (typeof url === 'string' && url ? transform(url) : url));
  const story = copy.story as Record<string, unknown> | null | undefined;
  if (story && typeof story === 'object') {
    copy.story = {
      ...story,
      logo: typeof story.logo === 'string' && story.logo ? transform(story.logo) : story.logo,
      screens: Array.isArray(story.screens)
        ? (story.screens as Record<string, unknown>[]).map((screen) => ({
            ...screen,
            logo: typeof screen.logo === 'string' && screen.logo ? transform(screen.logo) : screen.logo,
            illustration: typeof screen.illustration === 'string' && screen.illustration ? transform(screen.illustration) : screen.illustration,
          }))
        : story.screens,
    };
  }
  return copy as T;
}

// ---- dates ----------------------------------------------------------------------------------------------------

export class ModelError extends Error {
  override name = 'ModelError';
}

/** setUpdatedAt takes epoch seconds written with exactly 10 digits (spec §3); milliseconds or a date string are refused. */
export function checkTenDigitEpoch(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || String(value).length !== 10) {
    throw new ModelError(`updatedAt must be epoch seconds of 10 digits, got ${JSON.stringify(value)}`);
  }
  return value;
}

export function setUpdatedAt<T extends { updatedAt?: number | null }>(model: T, epochSeconds: unknown): T {
  return { ...model, updatedAt: checkTenDigitEpoch(epochSeconds) };
}

// ---- legacy layouts -------------------------------------------------------------------------------------------

type Raw = Record<string, unknown>;
const isObject = (value: unknown): value is Raw => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The old nested-document layout is recognised by its `document` sub-object (spec §3). */
export function isLegacyLayout(raw: unknown): boolean {
  return isObject(raw) && isObject(raw.document);
}

/**
 * Type of an item stored before types existed (spec §3): timeline with a post video is a video, timeline with the
 * quiz flag a quiz, the search type search, the STORY category a story, anything else a post.
 */
export function inferLegacyType(raw: Raw): AdvertType {
  const document = isObject(raw.document) ? raw.document : {};
  const post = isObject(raw.post) ? raw.post : {};
  const rawType = typeof raw.type === 'string' ? raw.type.toLowerCase() : '';
  if (rawType === 'search') return 'search';
  if (String(raw.category ?? document.category ?? '').toUpperCase() === 'STORY') return 'story';
  const timeline = rawType === 'timeline' || raw.timeline === true || isObject(raw.timeline);
  if (timeline && (post.video || document.video || (isObject(raw.timeline) && raw.timeline.video))) return 'video';
  if (timeline && (raw.isQuiz === true || raw.quiz === true || document.isQuiz === true || isObject(raw.quiz))) return 'quiz';
  if ((ADVERT_TYPES as readonly string[]).includes(rawType)) return rawType as AdvertType;
  return 'post';
}

/** Fields kept from a legacy item (the old layout's document fields lifted to the top level). */
const LEGACY_DOCUMENT_FIELDS = [
  'title',
  'subtitle',
  'author',
  'source',
  'logo',
  'image',
  'images',
  'imageSmall',
  'video',
  'tagline',
  'description',
  'footNote',
  'buttonLabel',
] as const;

/**
 * Maps any stored layout to the latest model's fields (the caller fills the defaults and validates). Hydrating
 * from an empty object is an error (spec §3): an item always has at least a name, a type or an id.
 */
export function mapLegacyLayout(raw: unknown): Raw {
  if (!isObject(raw) || Object.keys(raw).length === 0) throw new ModelError('Cannot hydrate an advert from an empty object');
  if (!isLegacyLayout(raw)) {
    const mapped: Raw = { ...raw, model: LATEST_MODEL };
    if (mapped.type == null || mapped.type === '') mapped.type = inferLegacyType(raw);
    return mapped;
  }
  const document = raw.document as Raw;
  const mapped: Raw = {};
  for (const [key, value] of Object.entries(raw)) {
    if (['document', 'post', 'timeline', 'category', 'isQuiz'].includes(key)) continue;
    mapped[key] = value;
  }
  for (const field of LEGACY_DOCUMENT_FIELDS) if (document[field] !== undefined && mapped[field] === undefined) mapped[field] = document[field];
  const post = isObject(raw.post) ? raw.post : {};
  if (mapped.video === undefined && typeof post.video === 'string') mapped.video = post.video;
  if (!Array.isArray(mapped.images) && typeof mapped.image === 'string' && mapped.image) mapped.images = [mapped.image];
  if (mapped.name === undefined) mapped.name = document.name ?? document.title ?? '';
  mapped.type = inferLegacyType(raw);
  mapped.model = LATEST_MODEL;
  return mapped;
}

/** Unix epoch seconds of a Date. */
export function epochSeconds(date: Date | number): number {
  return Math.floor((typeof date === 'number' ? date : date.getTime()) / 1000);
}

// ---- rules applied on every save ----------------------------------------------------------------------------

interface QuizLike {
  validateButtonLabel: string;
  link: string;
}

/**
 * Rules the editor and the server both apply when an item changes (spec §3 Quiz): the quiz validate label
 * follows the footnote language while it is one of the four defaults (a custom label is kept), and the quiz
 * link copies the source when the source changes.
 */
export function applyQuizRules<T extends { footNote?: string; source?: string; quiz?: QuizLike | null }>(previous: T | null, next: T): T {
  if (!next.quiz) return next;
  const quiz = { ...next.quiz };
  if ((Object.values(VALIDATE_LABELS) as string[]).includes(quiz.validateButtonLabel)) quiz.validateButtonLabel = validateLabelFor(next.footNote);
  if (previous && next.source !== undefined && next.source !== previous.source && (previous.quiz?.link ?? '') === quiz.link)
    quiz.link = next.source.trim();
  return { ...next, quiz };
}
