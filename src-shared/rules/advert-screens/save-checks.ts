import { ADVERT_SCREEN_MESSAGES as M } from '../../messages/advert-screens';
import { ADVERT_MESSAGES } from '../../messages/adverts';
import { CONTENT_FIELD_MESSAGES, contentFieldLabel } from '../../messages/content-fields';
import { CONTENT_URL_FIELDS, invalidUrlFields } from '../content-urls';
import { isExpertAudience, missingRequired, requiredPropertiesMessage, requiredPropertyLabel } from '../publication';
import type { ScheduleState } from './status';

/**
 * Save-time checks (adverts-articles.md §5) of the advert and article editors. They take the few fields they read
 * (structural types), so they hold for adverts and articles alike and are tested without a server.
 */

/** Spec §5, §9: save-time warnings and highlighted fields last 3 s. */
export const VALIDATION_HIGHLIGHT_MS = 3000;

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
  // Only an advert holds a Sonata ID (the article model has none, §3): an article tool is not asked for one.
  if (kind === 'advert' && item.type === 'tool' && !filled(item.sonataId)) fail(M.sonataIdRequired, 'sonataId');
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
