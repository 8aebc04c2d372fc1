import { z } from 'zod';
import { DELAY_REASON_KEYS } from '../rules/campaigns';
import {
  ADVERT_TYPES,
  ARTICLE_TYPES,
  DEFAULT_ANSWER_BUTTON_LABEL,
  DEFAULT_BUTTON_LABEL,
  DEFAULT_FOOTNOTE,
  DEFAULT_MAX_VIEWS,
  DEFAULT_SCREEN_FOOTER_BUTTON_TEXT,
  DEFAULT_STORY_COLOR,
  DEFAULT_SUBTITLE,
  DEFAULT_TAG,
  DEFAULT_WEIGHT,
  OPEN_IN_VALUES,
  SEARCH_TABS,
  WEIGHT_MAX,
  WEIGHT_MIN,
} from '../rules/advert-model';
import { isContentUrl, type UrlKind } from '../rules/content-urls';
import { CONTENT_FIELD_MESSAGES } from '../messages/content-fields';
import { emailField, recordVersionSchema, shortText } from './entities';

/**
 * The entities of adverts-articles.md §3, shared by the advert and article contracts: the full item as loaded, and
 * the same fields as a strict partial for writes (read-only fields are accepted and ignored, so an editor may send
 * back what it loaded).
 */

/** Epoch seconds (spec §3: every date of an advert). */
export const epochField = z.number().int().min(0).max(99_999_999_999);
const text = (max = 2000) => shortText(max);
/**
 * An address field (docs/content.md, address fields): written ones must be http(s), a root-relative `/cdn/...` path for media, or
 * a deeplink for links; as loaded, any text (an item stored before the check still opens, to be corrected).
 */
const URL_REASONS: Record<UrlKind, string> = {
  web: CONTENT_FIELD_MESSAGES.webUrl,
  media: CONTENT_FIELD_MESSAGES.mediaUrl,
  link: CONTENT_FIELD_MESSAGES.linkUrl,
};
const urlOf = (kind: UrlKind, checked: boolean) =>
  checked ? text(2000).refine((value) => isContentUrl(value, kind), URL_REASONS[kind]) : text(2000);
const color = text(20);
const id = z.number().int().min(1).max(2_147_483_647);

const sharingSchemaOf = (checked: boolean) =>
  z.strictObject({
    enableLikes: z.boolean().default(true),
    enableBookmarking: z.boolean().default(true),
    enableSharing: z.boolean().default(true),
    sharingLink: urlOf('link', checked).default(''),
    sharingMessage: text(1000).default(''),
  });

export const searchDataSchema = z.strictObject({
  position: z.number().int().min(0).max(1000).nullable().default(null),
  tabs: z.array(z.enum(SEARCH_TABS)).max(20).default([]),
  association: text(200).nullable().default(null),
});

export const toolDataSchema = z.strictObject({
  sponsored: z.boolean().default(false),
  sponsoredFromDate: epochField.nullable().default(null),
  sponsoredToDate: epochField.nullable().default(null),
});

export const quizQuestionSchema = z.strictObject({
  id: z.number().int().min(0).max(1_000_000),
  answer: text(500),
  correct: z.boolean().default(false),
  percentage: z.number().min(0).max(100).default(0),
});

const quizSchemaOf = (checked: boolean) =>
  z.strictObject({
    questions: z.array(quizQuestionSchema).max(50).default([]),
    allowMultipleAnswers: z.boolean().default(false),
    link: urlOf('link', checked).default(''),
    isSurvey: z.boolean().default(false),
    votersCount: z.number().int().min(0).max(1_000_000_000).default(0),
    votersCountDefault: z.number().int().min(0).max(1_000_000_000).default(0),
    answerButtonLabel: text(100).default(DEFAULT_ANSWER_BUTTON_LABEL),
    validateButtonLabel: text(100).default('Valider'),
    hasAnswered: z.boolean().default(false),
    answeredIds: z.array(z.number().int()).max(50).default([]),
  });

const screenSchemaOf = (checked: boolean) =>
  z.strictObject({
    id: z.number().int().min(0).max(1_000_000),
    uuid: text(64),
    logo: urlOf('media', checked).nullable().default(null),
    title: text(500).default(''),
    subtitle: text(500).default(''),
    titleColor: color.default('#FFFFFF'),
    subtitleColor: color.default('#FFFFFF'),
    backgroundColor: color.default(DEFAULT_STORY_COLOR),
    illustration: urlOf('media', checked).nullable().default(null),
    link: urlOf('link', checked).default(''),
    position: z.number().int().min(0).max(1000).default(0),
    footerButtonText: text(100).default(DEFAULT_SCREEN_FOOTER_BUTTON_TEXT),
    footerButtonTextColor: color.default('#FFFFFF'),
    footerChevronColor: color.default('#FFFFFF'),
    footerBgColor: color.default(DEFAULT_STORY_COLOR),
  });
export const screenSchema = screenSchemaOf(true);
export type StoryScreen = z.output<typeof screenSchema>;

const storySchemaOf = (checked: boolean) =>
  z.strictObject({
    logo: urlOf('media', checked).nullable().default(null),
    title: text(500).default(''),
    subtitle: text(500).default(''),
    position: z.number().int().min(0).max(1000).nullable().default(null),
    forward: z.boolean().default(false),
    screens: z.array(screenSchemaOf(checked)).max(50).default([]),
    isSeen: z.boolean().default(false),
    /** When the expiration was last reset (PUT /stories/{id}/reset), epoch seconds. */
    resetAt: epochField.nullable().default(null),
  });
export const storySchema = storySchemaOf(true);

export const autoPublishOptionsSchema = z.strictObject({
  activated: z.boolean().default(false),
  emails: z.array(emailField).max(50).default([]),
});

export const callToActionSchema = z.strictObject({ text: text(200), textColor: color, backgroundColor: color });

/**
 * The project target an item is linked to (spec §3 _$target), read from the target itself (docs/projects.md, Targets): the link is
 * the target's advert id, set from either side, and these are the target's own figures and project.
 */
export const targetLinkSchema = z.object({
  id: id.nullable(),
  /** The target's project: where 'Page projet' goes. */
  projectId: id.nullable(),
  initialQuotationDate: epochField.nullable(),
  endDate: epochField.nullable(),
  revenue: z.number().min(0).max(1e12).nullable(),
  delayReason: z.enum(DELAY_REASON_KEYS).nullable(),
  /** Whole days from the initial quotation date to the campaign start. */
  releaseDateDiff: z.number().int().nullable(),
  revenueDelayImpact: z.number().nullable(),
  actionCode: z.string().nullable(),
});
export type TargetLink = z.output<typeof targetLinkSchema>;

/**
 * What the publish call may say of the target ("target props", spec §4). The server takes the delay reason; the
 * other figures are the linked target's own and are accepted but not taken from the call.
 */
export const targetPropsSchema = z.strictObject({
  id: id.optional(),
  initialQuotationDate: epochField.nullable().optional(),
  endDate: epochField.nullable().optional(),
  revenue: z.number().min(0).max(1e12).nullable().optional(),
  delayReason: z.enum(DELAY_REASON_KEYS).nullable().optional(),
  actionCode: text(100).nullable().optional(),
});

/** Fields common to adverts and articles, with their defaults (spec §3, §4); addresses checked when `checked`. */
const commonFieldsOf = (checked: boolean) => ({
  name: text(300).default(''),
  label: text(300).default(''),
  weight: z.number().int().min(WEIGHT_MIN).max(WEIGHT_MAX).default(DEFAULT_WEIGHT),
  maxViews: z.number().int().min(0).max(1_000_000).default(DEFAULT_MAX_VIEWS),
  isSeen: z.boolean().default(false),
  published: z.boolean().default(false),
  archived: z.boolean().default(false),
  showReadMore: z.boolean().default(true),
  openIn: z.enum(OPEN_IN_VALUES).nullable().default(null),
  pixelTrackingUrl: urlOf('web', checked).nullable().default(null),
  autoStartAt: epochField.nullable().default(null),
  autoStopAt: epochField.nullable().default(null),
  logo: urlOf('media', checked).nullable().default(null),
  image: urlOf('media', checked).nullable().default(null),
  images: z.array(urlOf('media', checked)).max(50).default([]),
  imageSmall: urlOf('media', checked).nullable().default(null),
  video: urlOf('media', checked).nullable().default(null),
  source: urlOf('link', checked).default(''),
  author: text(300).default(''),
  title: text(500).default(''),
  subtitle: text(500).default(DEFAULT_SUBTITLE),
  tagline: text(5000).default(''),
  description: text(5000).default(''),
  footNote: text(2000).default(DEFAULT_FOOTNOTE),
  buttonLabel: text(100).default(DEFAULT_BUTTON_LABEL),
  autoPublishOptions: autoPublishOptionsSchema.default({ activated: false, emails: [] }),
  adVersion: z.number().int().min(0).max(1_000_000).nullable().default(null),
  sharing: sharingSchemaOf(checked).default({ enableLikes: true, enableBookmarking: true, enableSharing: true, sharingLink: '', sharingMessage: '' }),
  quiz: quizSchemaOf(checked).nullable().default(null),
  story: storySchemaOf(checked).nullable().default(null),
  richContent: text(100_000).nullable().default(null),
  callToAction: callToActionSchema.nullable().default(null),
});

/** Fields the server sets; accepted in writes and ignored. */
const readOnlyFields = {
  id: z.number().int(),
  model: z.string(),
  createdAt: epochField.nullable(),
  updatedAt: epochField.nullable(),
  publishedAt: epochField.nullable(),
  unpublishedAt: epochField.nullable(),
  targetId: z.number().int().nullable(),
  _$target: targetLinkSchema.nullable(),
  /** The item's version (docs/architecture.md, "Versions and conflicts"); writes send theirs as `version`. */
  version: recordVersionSchema.optional(),
};

const advertFieldsOf = (checked: boolean) => ({
  ...commonFieldsOf(checked),
  type: z.enum(ADVERT_TYPES).nullable().default(null),
  isFree: z.boolean().default(false),
  promoteInSearch: z.boolean().default(false),
  sonataId: text(100).nullable().default(null),
  bannerLink: urlOf('link', checked).nullable().default(null),
  search: searchDataSchema.default({ position: null, tabs: [], association: null }),
  tool: toolDataSchema.default({ sponsored: false, sponsoredFromDate: null, sponsoredToDate: null }),
});
const advertFields = advertFieldsOf(true);

const articleFieldsOf = (checked: boolean) => ({
  ...commonFieldsOf(checked),
  type: z.enum(ARTICLE_TYPES).nullable().default('post'),
  subtitle: text(500).default(''),
  isPinned: z.boolean().default(false),
  isNew: z.boolean().default(false),
  tag: z.strictObject({ text: text(100).default(DEFAULT_TAG.text), tagColor: color.default(DEFAULT_TAG.tagColor) }).default({ ...DEFAULT_TAG }),
});
const articleFields = articleFieldsOf(true);

export const advertAudienceSchema = z.object({ id: z.number().int(), name: z.string(), roles: z.array(z.string()) });
export const articleAudienceSchema = z.object({ id: z.number().int(), name: z.string(), label: z.string(), roles: z.array(z.string()) });

/** An advert as loaded (spec §3 Advert), defaults filled. */
export const advertSchema = z.object({
  ...advertFieldsOf(false),
  ...readOnlyFields,
  _$audiences: z.array(advertAudienceSchema),
});
export type Advert = z.output<typeof advertSchema>;

export const articleSchema = z.object({
  ...articleFieldsOf(false),
  ...readOnlyFields,
  _$audiences: z.array(articleAudienceSchema),
  _$pinnedArticles: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type Article = z.output<typeof articleSchema>;

/** Writable advert fields, without defaults: what a write changes. Read-only fields are accepted and ignored. */
const optionalShape = <T extends Record<string, z.ZodType>>(shape: T) =>
  Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, unwrapDefault(schema).optional()])) as {
    [K in keyof T]: z.ZodOptional<z.ZodType<z.output<T[K]>, z.input<T[K]>>>;
  };

function unwrapDefault(schema: z.ZodType): z.ZodType {
  return schema instanceof z.ZodDefault ? (schema.unwrap() as z.ZodType) : schema;
}

export const advertWritableShape = optionalShape(advertFields);
export const articleWritableShape = optionalShape(articleFields);

const readOnlyInput = {
  ...optionalShape(readOnlyFields),
  _$audiences: z.array(z.unknown()).max(1000).optional(),
  _$pinnedArticles: z.array(z.unknown()).max(1000).optional(),
  isInCatalog: z.boolean().optional(),
};

export const advertInputSchema = z.strictObject({ ...advertWritableShape, ...readOnlyInput });
export type AdvertInput = z.output<typeof advertInputSchema>;
export const articleInputSchema = z.strictObject({ ...articleWritableShape, ...readOnlyInput });
export type ArticleInput = z.output<typeof articleInputSchema>;

/** Defaults of a new advert / article: the schemas' defaults (spec §3), footnote in French. */
export const advertDefaultsSchema = z.object(advertFields);
export const articleDefaultsSchema = z.object(articleFields);

export const ADVERT_PROPERTIES = Object.keys(advertFields) as (keyof typeof advertFields)[];
export const ARTICLE_PROPERTIES = Object.keys(articleFields) as (keyof typeof articleFields)[];

/** A row of the advert list (spec §3 Advert list row, plus what the list's columns and status icon read). */
export const contentRowSchema = z.object({
  id: z.number().int(),
  type: z.string().nullable(),
  name: z.string(),
  title: z.string(),
  author: z.string(),
  source: z.string(),
  logo: z.string().nullable(),
  image: z.string().nullable(),
  published: z.boolean(),
  archived: z.boolean(),
  isFree: z.boolean(),
  isPinned: z.boolean(),
  isInCatalog: z.boolean(),
  weight: z.number().int(),
  model: z.string(),
  createdAt: epochField.nullable(),
  updatedAt: epochField.nullable(),
  publishedAt: epochField.nullable(),
  unpublishedAt: epochField.nullable(),
  autoStartAt: epochField.nullable(),
  autoStopAt: epochField.nullable(),
  targetId: z.number().int().nullable(),
  _$audiences: z.array(articleAudienceSchema),
  /** Targets linked to the item (the projects issue): its one target link, when any. */
  _$targets: z.array(z.object({ id: z.number().int() })),
  /** Its version (docs/architecture.md, "Versions and conflicts"): a delete from the list sends it as `?version=`. */
  version: recordVersionSchema,
});
export type ContentRow = z.output<typeof contentRowSchema>;

/** One recorded change of an advert or article (docs/content.md, beyond the spec). */
export const historyEntrySchema = z.object({
  id: z.number().int(),
  itemId: z.number().int(),
  action: z.string(),
  accountId: z.number().int().nullable(),
  accountName: z.string(),
  /** Epoch milliseconds. */
  at: z.number().int(),
  fields: z.array(z.string()),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type HistoryEntry = z.output<typeof historyEntrySchema>;

export { id as contentIdSchema };
