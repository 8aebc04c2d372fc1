import { audienceSearchers, audienceWriters, contentAdminFieldWriters, contentWriters } from '../access-rules';
import { ADVERT_SCREEN_MESSAGES as M } from '../messages/advert-screens';
import { isAllowed } from '../roles';
import { ADVERT_MESSAGES } from '../messages/adverts';
import { formatDateTime } from './dates';
import { openInChoices } from './advert-model';
import { CONTENT_FIELD_MESSAGES, contentFieldLabel } from '../messages/content-fields';
import { CONTENT_URL_FIELDS, invalidUrlFields } from './content-urls';
import { isExpertAudience, missingRequired, requiredPropertiesMessage, requiredPropertyLabel } from './publication';

/**
 * Pure rules of the advert and article screens (adverts-articles.md §2.1, §2.2, §4, §5, §9): the list's status
 * icon, the editor's labels, the save-time checks, CSV value parsing, the audience search, the notification
 * auto-stop, quiz ids and the weight slider. They take the few fields they read (structural types), so they hold
 * for adverts and articles alike and are tested without a server. Times are epoch seconds (spec §3).
 */

export const ADVERT_TYPES = ['post', 'search', 'story', 'quiz', 'tool', 'notification', 'video', 'banner'] as const;
export type AdvertTypeName = (typeof ADVERT_TYPES)[number];
export const ARTICLE_TYPES = ['post', 'video', 'quiz', 'story', 'search', 'tool', 'notification'] as const;

/** Spec §9: list pages of 25; the article list loads the next page within 1000 px, debounced 250 ms. */
export const LIST_PAGE_SIZE = 25;
export const ARTICLE_SCROLL_THRESHOLD_PX = 1000;
export const ARTICLE_SCROLL_DEBOUNCE_MS = 250;
/** Spec §7: CSV export sends skip 0, limit 1000, published true. */
export const CSV_EXPORT_LIMIT = 1000;
/** Spec §5, §9: save-time warnings and highlighted fields last 3 s. */
export const VALIDATION_HIGHLIGHT_MS = 3000;

// ---------------------------------------------------------------------------------------------------------------
// Status icon (§2.1) and labels (§2.2)

export interface ScheduleState {
  published?: boolean;
  autoStartAt?: number | null;
  autoStopAt?: number | null;
}

export type StatusIconKind = 'published-until' | 'scheduled' | 'schedule-missed' | 'published' | 'unpublished';
export interface StatusIcon {
  kind: StatusIconKind;
  color: 'green' | 'orange' | 'red' | 'grey';
  clock: boolean;
  /** What the icon means, for its tooltip and screen readers (not in the spec). */
  title: string;
}

/**
 * The five states of the list's status icon (§2.1): published with a stop date, green with a clock; unpublished
 * with a future start date, orange with a clock; unpublished with both dates (the start passed without
 * publication), red; published alone, green; unpublished alone, grey.
 */
export function statusIcon(item: ScheduleState, nowSeconds: number): StatusIcon {
  const start = item.autoStartAt ?? null;
  const stop = item.autoStopAt ?? null;
  if (item.published) {
    return stop !== null
      ? { kind: 'published-until', color: 'green', clock: true, title: 'Publié, dé-publication programmée' }
      : { kind: 'published', color: 'green', clock: false, title: 'Publié' };
  }
  if (start !== null && start > nowSeconds) return { kind: 'scheduled', color: 'orange', clock: true, title: 'Publication programmée' };
  if (start !== null && stop !== null)
    return { kind: 'schedule-missed', color: 'red', clock: false, title: 'Dates de programmation sans publication' };
  return { kind: 'unpublished', color: 'grey', clock: false, title: 'Non publié' };
}

/** The editor's labels (§2.2): Publié; 'Prog: {date}' for the auto start; 'Fin: {date}' for the auto stop. */
export function scheduleLabels(item: ScheduleState): string[] {
  const labels: string[] = [];
  if (item.published) labels.push(M.published);
  if (item.autoStartAt != null) labels.push(M.scheduledStart(formatDateTime(item.autoStartAt)));
  if (item.autoStopAt != null) labels.push(M.scheduledStop(formatDateTime(item.autoStopAt)));
  return labels;
}

export interface CampaignState {
  published?: boolean;
  publishedAt?: number | null;
  unpublishedAt?: number | null;
}

/** The campaign has started (publishedAt set) and not ended (no unpublishedAt). */
export const campaignRunning = (item: CampaignState) => item.publishedAt != null && item.unpublishedAt == null;

/**
 * The status label (§2.2): 'offline' when unpublished; 'publié' when published and the campaign started and not
 * ended; 'online' when published but with a campaign end or without a start.
 */
export function campaignStatus(item: CampaignState): 'offline' | 'online' | 'publié' {
  if (!item.published) return 'offline';
  return campaignRunning(item) ? 'publié' : 'online';
}

/** 'Démarrer la campagne' only when there is no publishedAt; 'Terminer la campagne' when started and not ended. */
export const canStartCampaign = (item: CampaignState) => item.publishedAt == null;
export const canEndCampaign = (item: CampaignState) => campaignRunning(item);

// ---------------------------------------------------------------------------------------------------------------
// Weight slider (§2.2, §9)

export const WEIGHT_MIN = 1;
export const WEIGHT_MAX = 10;
export const DEFAULT_WEIGHT = 5;

export function clampWeight(weight: number | null | undefined): number {
  if (weight == null || !Number.isFinite(weight)) return DEFAULT_WEIGHT;
  return Math.min(WEIGHT_MAX, Math.max(WEIGHT_MIN, Math.round(weight)));
}

/** The slider shows the weight × 10 percent: 5 → '50 %'. */
export const weightDisplay = (weight: number | null | undefined) => `${clampWeight(weight) * 10} %`;

// ---------------------------------------------------------------------------------------------------------------
// Save-time checks (§5)

export interface StoryColours {
  titleColor?: string | null;
  subtitleColor?: string | null;
  backgroundColor?: string | null;
  footerButtonTextColor?: string | null;
  footerChevronColor?: string | null;
  footerBgColor?: string | null;
}

export interface ValidatedItem extends ScheduleState {
  name?: string | null;
  type?: string | null;
  autoPublishOptions?: { activated?: boolean; emails?: readonly string[] } | null;
  sonataId?: string | null;
  logo?: string | null;
  images?: readonly string[] | null;
  author?: string | null;
  source?: string | null;
  title?: string | null;
  video?: string | null;
  footNote?: string | null;
  story?: { logo?: string | null; screens?: readonly StoryColours[] | null } | null;
  maxViews?: number | null;
  callToAction?: { textColor?: string | null; backgroundColor?: string | null } | null;
  /** Articles: their audiences, `label` being the audience's area (french, english, ...). */
  _$audiences?: readonly { label?: string | null }[] | null;
  /** Articles: their own audience's criteria as the editor holds them (§2.5), when loaded. */
  _$criteria?: readonly { label: string }[] | null;
}

export interface ValidationResult {
  messages: string[];
  /** Field names to highlight for 3 s. */
  fields: string[];
  /** The message each field shows at itself (its first one). */
  errors: Record<string, string>;
}

/** Colours are #rgb or #rrggbb (§5). */
export const isHexColour = (value: string) => /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(value);

/** Whether a value counts as filled: a non-blank text, a non-empty list. */
function filled(value: unknown): boolean {
  if (value == null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.some((entry) => filled(entry));
  return true;
}

const STORY_COLOUR_FIELDS: (keyof StoryColours)[] = [
  'titleColor',
  'subtitleColor',
  'backgroundColor',
  'footerButtonTextColor',
  'footerChevronColor',
  'footerBgColor',
];

const CTA_COLOUR_FIELDS = ['textColor', 'backgroundColor'] as const;

/** 'Vues max par utilisateur' is a whole number from 0 to MAX_VIEWS_LIMIT (the contract's bounds); absent keeps the default. */
export const MAX_VIEWS_LIMIT = 1_000_000;
const isViewCount = (value: number | null | undefined) =>
  value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_VIEWS_LIMIT);

/**
 * The save-time checks of §5, in the spec's order, with the fields they are about. An empty `messages` means the
 * item may be saved; otherwise the screen shows them joined by ' / ' as a 3 s warning.
 */
export function validateForSave(item: ValidatedItem, kind: 'advert' | 'article'): ValidationResult {
  const messages: string[] = [];
  const fields: string[] = [];
  const errors: Record<string, string> = {};
  const fail = (message: string, ...about: string[]) => {
    messages.push(message);
    fields.push(...about);
    for (const field of about) errors[field] ??= message;
  };
  const start = item.autoStartAt ?? null;
  const stop = item.autoStopAt ?? null;
  if (start !== null && !filled(item.autoPublishOptions?.emails ?? [])) fail(M.autoPublishEmailRequired, 'autoPublishOptions.emails');
  if (!filled(item.name)) fail(kind === 'advert' ? ADVERT_MESSAGES.advertNameRequired : M.articleNameRequired, 'name');
  if (stop !== null && start === null) fail(M.startDateRequired, 'autoStartAt');
  if (start !== null && stop === null) fail(M.stopDateRequired, 'autoStopAt');
  const badColour = (item.story?.screens ?? []).some((screen) =>
    STORY_COLOUR_FIELDS.some((field) => filled(screen[field]) && !isHexColour(String(screen[field]).trim())),
  );
  if (item.type === 'story' && badColour) fail(M.storyColourInvalid, 'story.screens');
  // The story's CTA colours are colours too (§5), each marked at its field.
  const badCta = CTA_COLOUR_FIELDS.filter((field) => filled(item.callToAction?.[field]) && !isHexColour(String(item.callToAction?.[field]).trim()));
  if (item.type === 'story' && badCta.length) fail(M.storyColourInvalid, ...badCta.map((field) => `callToAction.${field}`));
  if (!isViewCount(item.maxViews)) fail(M.maxViewsInvalid, 'maxViews');
  if (kind === 'advert' && !filled(item.type)) fail(M.advertTypeRequired, 'type');
  // An article needs an audience with its Area (the server gives each attached audience its area as `label`).
  // With its own criteria (§2.5), an article needs an Area criterion among them.
  const hasArea = item._$criteria
    ? item._$criteria.some((criterion) => criterion.label === 'Area')
    : (item._$audiences ?? []).some((audience) => filled(audience.label));
  if (kind === 'article' && !hasArea) fail(M.articleAreaRequired, '_$audiences');
  if (item.type === 'tool' && !filled(item.sonataId)) fail(M.sonataIdRequired, 'sonataId');
  // A published advert keeps the properties of its type (§5, the list the server checks too; articles: none).
  const missing = kind === 'advert' && item.published ? missingRequired(item) : [];
  if (missing.length) fail(requiredPropertiesMessage(missing.map(requiredPropertyLabel)), ...missing.map((property) => property.paths[0]));
  // Address fields hold addresses (docs/content.md, address fields), as the server checks too.
  for (const path of invalidUrlFields(item)) {
    const label = contentFieldLabel(path);
    fail(CONTENT_URL_FIELDS[path] === 'link' ? CONTENT_FIELD_MESSAGES.invalidLink(label) : CONTENT_FIELD_MESSAGES.invalidUrl(label), path);
  }
  return { messages, fields, errors };
}

export interface PublishedAudience {
  roles?: readonly string[] | null;
}

/** The toolbar's expert warning: one of the audiences does not target experts (§2.2). */
export const hasNonExpertAudience = (audiences: readonly PublishedAudience[] | null | undefined) =>
  (audiences ?? []).some((audience) => !isExpertAudience(audience));

/**
 * The publication checks of §5, before an advert goes online (the server checks them too): a video needs its
 * video, an advert needs an audience, and every audience must target experts.
 */
export function publicationProblems(item: {
  type?: string | null;
  video?: string | null;
  _$audiences?: readonly PublishedAudience[] | null;
}): string[] {
  const problems: string[] = [];
  if (item.type === 'video' && !filled(item.video)) problems.push(ADVERT_MESSAGES.videoRequired);
  const audiences = item._$audiences ?? [];
  if (audiences.length === 0) problems.push(ADVERT_MESSAGES.noAudience);
  else if (hasNonExpertAudience(audiences)) problems.push(ADVERT_MESSAGES.nonExpertAudience);
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------
// CSV import values (§5 "Other rules")

/** Booleans accept true, yes, 1 and false, no, 0 (any case); anything else is null. */
export function parseCsvBoolean(raw: string | null | undefined): boolean | null {
  const value = (raw ?? '').trim().toLowerCase();
  if (['true', 'yes', '1'].includes(value)) return true;
  if (['false', 'no', '0'].includes(value)) return false;
  return null;
}

/** weight and maxViews are integers; anything else is null. */
export function parseCsvInteger(raw: string | null | undefined): number | null {
  const value = (raw ?? '').trim();
  return /^[-+]?\d{1,15}$/.test(value) ? Number(value) : null;
}

/** Dates: epoch seconds as digits, or a date string the platform parses; invalid gives null. Answers epoch seconds. */
export function parseCsvDate(raw: string | null | undefined): number | null {
  const value = (raw ?? '').trim();
  if (!value) return null;
  if (/^\d{1,12}$/.test(value)) return Number(value);
  // DD/MM/yyyy (the product's display format, platform.md §9), optionally with HH:mm.
  const french = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[ T](\d{1,2}):(\d{2}))?$/.exec(value);
  if (french) {
    const [, day, month, year, hours, minutes] = french.map(Number);
    const date = new Date(year, month - 1, day, hours || 0, minutes || 0);
    if (date.getMonth() !== month - 1 || date.getDate() !== day) return null;
    return Math.floor(date.getTime() / 1000);
  }
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : Math.floor(parsed / 1000);
}

export const CSV_BOOLEAN_FIELDS = ['published', 'archived', 'isFree', 'promoteInSearch', 'showReadMore', 'isInCatalog'] as const;
export const CSV_INTEGER_FIELDS = ['id', 'weight', 'maxViews'] as const;
export const CSV_DATE_FIELDS = ['autoStartAt', 'autoStopAt'] as const;
export const CSV_TEXT_FIELDS = [
  'name',
  'type',
  'title',
  'subtitle',
  'author',
  'source',
  'tagline',
  'description',
  'footNote',
  'buttonLabel',
  'sonataId',
  'pixelTrackingUrl',
] as const;

export type CsvAdvertRow = Partial<Record<(typeof CSV_BOOLEAN_FIELDS)[number], boolean>> &
  Partial<Record<(typeof CSV_INTEGER_FIELDS)[number], number>> &
  Partial<Record<(typeof CSV_DATE_FIELDS)[number], number>> &
  Partial<Record<(typeof CSV_TEXT_FIELDS)[number], string>>;

/** Rows of one CSV import of adverts: imported in one transaction, whole or not at all. */
export const ADVERT_IMPORT_MAX_ROWS = 5000;

/**
 * One CSV row as advert fields: known columns parsed by their kind, blank cells left out, other columns ignored.
 * A value that does not parse is an error of the row (the spec's "invalid gives null" would silently erase it),
 * named by the editor's label of its field (docs/content.md, field labels), never by its column key.
 */
export function parseAdvertCsvRow(row: Record<string, string>): { value: CsvAdvertRow; errors: string[] } {
  const value: Record<string, unknown> = {};
  const errors: string[] = [];
  const cell = (column: string) => (row[column] ?? '').trim();
  for (const field of CSV_BOOLEAN_FIELDS) {
    if (!cell(field)) continue;
    const parsed = parseCsvBoolean(cell(field));
    if (parsed === null) errors.push(`${contentFieldLabel(field)} : booléen attendu (true/yes/1, false/no/0)`);
    else value[field] = parsed;
  }
  for (const field of CSV_INTEGER_FIELDS) {
    if (!cell(field)) continue;
    const parsed = parseCsvInteger(cell(field));
    if (parsed === null) errors.push(`${contentFieldLabel(field)} : nombre entier attendu`);
    else value[field] = parsed;
  }
  for (const field of CSV_DATE_FIELDS) {
    if (!cell(field)) continue;
    const parsed = parseCsvDate(cell(field));
    if (parsed === null) errors.push(`${contentFieldLabel(field)} : date invalide`);
    else value[field] = parsed;
  }
  for (const field of CSV_TEXT_FIELDS) if (cell(field)) value[field] = cell(field);
  if (value.type !== undefined && !(ADVERT_TYPES as readonly string[]).includes(value.type as string))
    errors.push(`${contentFieldLabel('type')} : inconnu (${value.type})`);
  return { value: value as CsvAdvertRow, errors };
}

// ---------------------------------------------------------------------------------------------------------------
// Audience search (§5, §7, §9)

export const AUDIENCE_SEARCH_MIN_CHARS = 2;
export const AUDIENCE_SEARCH_DEBOUNCE_MS = 320;
export const AUDIENCE_SEARCH_LIMIT = { advert: 120, article: 25 } as const;

/**
 * Whether a term is searched (§5): at least 2 characters, and not empty, not starting with a colon, without a
 * comma, apostrophe or parenthesis.
 */
export function isSearchableAudienceTerm(term: string): boolean {
  const value = term.trim();
  if (value.length < AUDIENCE_SEARCH_MIN_CHARS) return false;
  if (value.startsWith(':')) return false;
  return !/[,'’()]/.test(value);
}

// ---------------------------------------------------------------------------------------------------------------
// Notification auto-stop (§4)

export const NOTIFICATION_STOP_DAYS_ADVERT = 7;
const SECONDS_PER_DAY = 86_400;

/**
 * Setting a notification's start date sets its stop date: start + 7 days in the advert editor, one calendar
 * month after the start in the article editor (same day and time of the next month, the month's last day when
 * it is shorter).
 */
export function notificationAutoStop(startSeconds: number, kind: 'advert' | 'article'): number {
  if (kind === 'advert') return startSeconds + NOTIFICATION_STOP_DAYS_ADVERT * SECONDS_PER_DAY;
  const start = new Date(startSeconds * 1000);
  const target = new Date(start.getTime());
  target.setDate(1);
  target.setMonth(start.getMonth() + 1);
  const lastDay = new Date(target.getFullYear(), target.getMonth() + 1, 0).getDate();
  target.setDate(Math.min(start.getDate(), lastDay));
  return Math.floor(target.getTime() / 1000);
}

// ---------------------------------------------------------------------------------------------------------------
// Quiz (§3)

export interface QuizQuestion {
  id: number;
  answer: string;
  correct: boolean;
  percentage: number;
}

/** A new question's id is the question count plus 1 (§3). */
export const nextQuestionId = (questions: readonly unknown[]) => questions.length + 1;

export function newQuestion(questions: readonly QuizQuestion[]): QuizQuestion {
  return { id: nextQuestionId(questions), answer: '', correct: false, percentage: 0 };
}

/** Source and quiz link are trimmed; changing the source copies it into the quiz link (§3). */
export function withSource<T extends { source?: string | null; quiz?: { link?: string | null } | null }>(item: T, source: string): T {
  const trimmed = source.trim();
  return item.quiz ? { ...item, source: trimmed, quiz: { ...item.quiz, link: trimmed } } : { ...item, source: trimmed };
}

// ---------------------------------------------------------------------------------------------------------------
// Sections of the editors (§2.2, §2.5)

export type EditorSection = 'general' | 'audiences' | 'visuals' | 'tracking' | 'cta' | 'quiz' | 'sharing' | 'scheduling' | 'funnels';

/** Which accordion sections an advert of `type` shows to a user holding `roles` (§2.2). */
export function advertSections(type: string | null | undefined, roles: readonly string[]): EditorSection[] {
  const isAdmin = isAllowed(contentAdminFieldWriters, roles);
  const sections: EditorSection[] = ['general', 'audiences'];
  if (type !== 'story' && type !== 'banner') sections.push('visuals');
  if (isAdmin && type !== 'story') sections.push('tracking');
  if (type === 'story') sections.push('cta');
  if (type === 'quiz') sections.push('quiz');
  if (!['story', 'banner', 'tool', 'notification'].includes(type ?? '')) sections.push('sharing');
  if (type !== 'tool') sections.push('scheduling', 'funnels');
  return sections;
}

/**
 * The fields of each section of the advert editor that hold a value of the advert, as the editor names them (its
 * `data-field`, also the name a failed save highlights): the inputs of a saved advert of `type` for a user who may
 * write (uploads come with the first save). The publication rule's required fields are checked against this map,
 * and the browser test checks the editor against it, type by type. Screens' own fields (screen.*) are not listed.
 */
export function advertSectionFields(section: EditorSection, type: string | null | undefined, roles: readonly string[]): string[] {
  switch (section) {
    case 'general':
      return [
        'name',
        'type',
        'weight',
        'maxViews',
        ...(openInChoices(type).length > 0 ? ['openIn'] : []),
        'isFree',
        ...(type === 'story' ? ['story.position'] : []),
        'promoteInSearch',
        // For other types, the search fields come with 'Promouvoir dans la recherche'.
        ...(type === 'search' ? ['search.position', 'search.tabs'] : []),
        ...(type === 'tool' ? ['sonataId'] : []),
        // A banner hides 'Visuels et descriptifs': its image is uploaded here.
        ...(type === 'banner' ? ['bannerLink', 'images'] : []),
      ];
    case 'audiences':
      return ['_$audiences'];
    case 'visuals':
      return [
        'prefillUrl',
        'logo',
        'images',
        ...(type === 'video' ? ['video'] : []),
        'source',
        'author',
        'title',
        'subtitle',
        'buttonLabel',
        'tagline',
        'description',
        'footNote',
        'showReadMore',
      ];
    case 'tracking':
      return ['pixelTrackingUrl'];
    case 'cta':
      // The story's own logo: its upload (§7), the one logo a story's editor sets.
      return [
        'story.title',
        'story.subtitle',
        'callToAction.text',
        'callToAction.textColor',
        'callToAction.backgroundColor',
        'story.forward',
        'story.logo',
        'story.screens',
      ];
    case 'quiz':
      return [
        'quiz.allowMultipleAnswers',
        'quiz.isSurvey',
        'quiz.link',
        'quiz.answerButtonLabel',
        'quiz.validateButtonLabel',
        ...(isAllowed(contentAdminFieldWriters, roles) ? ['quiz.votersCountDefault'] : []),
      ];
    case 'sharing':
      return ['sharing.enableLikes', 'sharing.enableBookmarking', 'sharing.enableSharing', 'sharing.sharingLink', 'sharing.sharingMessage'];
    case 'scheduling':
      return ['autoStartAt', 'autoStopAt', 'autoPublishOptions.activated', 'autoPublishOptions.emails'];
    case 'funnels':
      return [];
  }
}

/** Every field the advert editor shows for `type` to `roles` (§2.2): the fields of the sections it shows. */
export const advertEditorFields = (type: string | null | undefined, roles: readonly string[]): string[] =>
  advertSections(type, roles).flatMap((section) => advertSectionFields(section, type, roles));

/** The article editor's sections (§2.5): no Tracking nor funnels. */
export function articleSections(type: string | null | undefined): EditorSection[] {
  const sections: EditorSection[] = ['general', 'audiences'];
  if (type !== 'story') sections.push('visuals');
  if (type === 'story') sections.push('cta');
  if (type === 'quiz') sections.push('quiz');
  if (type !== 'story' && type !== 'notification') sections.push('sharing');
  sections.push('scheduling');
  return sections;
}

/** 'Convertir en post contenu' is offered for post, video, quiz and story (§2.2, §4). */
export const CONVERTIBLE_TYPES = ['post', 'video', 'quiz', 'story'] as const;
export const isConvertible = (type: string | null | undefined) => (CONVERTIBLE_TYPES as readonly string[]).includes(type ?? '');

/** The editor's id (§2.2): 'new', 'project-{name}' (a new advert named after a project target), or an existing id. */
export type EditorId = { kind: 'new'; name: string } | { kind: 'existing'; id: number } | { kind: 'invalid' };
export const PROJECT_PREFIX = 'project-';

export function parseEditorId(raw: string | undefined): EditorId {
  if (raw === undefined) return { kind: 'invalid' };
  if (raw === 'new') return { kind: 'new', name: '' };
  if (raw.startsWith(PROJECT_PREFIX)) return { kind: 'new', name: raw.slice(PROJECT_PREFIX.length) };
  return /^\d{1,10}$/.test(raw) && Number(raw) > 0 ? { kind: 'existing', id: Number(raw) } : { kind: 'invalid' };
}

/** Roles that see the audience search box of the editor (§2.2, §6): those audiences.search lets in. */
export const canSearchAudiences = (roles: readonly string[]) => isAllowed(audienceSearchers, roles);
/** Roles for whom the list's audience tag is a link to /audiences/{id} (§2.1, §6): those the audience editor opens for. */
export const canOpenAudience = (roles: readonly string[]) => isAllowed(audienceWriters, roles);
/** SALES without ADMIN only reads adverts (§6): the content writes refuse them. */
export const isAdvertReadOnly = (roles: readonly string[]) => !isAllowed(contentWriters, roles);
