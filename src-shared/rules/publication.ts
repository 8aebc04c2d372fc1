import { contentFieldLabel } from '../messages/content-fields';
import { ADVERT_MESSAGES } from '../messages/adverts';
import { EXPERT_ROLE } from './audiences';
import { CONTENT_URL_FIELDS, isContentUrl, valueAt } from './content-urls';

/**
 * Publication rules of adverts-articles.md §5, shared by the server (which enforces them on every write that
 * publishes) and the editor (which warns before asking).
 */

/**
 * One property a published advert must have (spec §5): `name` is the spec's word for it (the one the message
 * lists), `paths` where the advert of that type holds it, the first being the field its editor writes. A story's
 * logo is its story's own logo (§3 Story, the story logo upload of §7): 'Visuels et descriptifs', where the
 * advert's top-level logo is typed, is hidden for stories (§2.2). The top-level logo still counts for a story,
 * as the preview and the app fall back to it (stories converted or written through the API).
 */
export interface RequiredProperty {
  readonly name: string;
  readonly paths: readonly [string, ...string[]];
}

const at = (name: string, ...paths: string[]): RequiredProperty => ({ name, paths: (paths.length ? paths : [name]) as [string, ...string[]] });

/**
 * Properties a published advert of each type must have (spec §5), in the spec's order: the one list the editor's
 * save-time check and the server's publication check both read. Tool: none. Banner: its image (the spec lists none,
 * but a banner without one showed a placeholder to app users).
 */
export const REQUIRED_WHEN_PUBLISHED: Readonly<Record<string, readonly RequiredProperty[]>> = {
  post: [at('logo'), at('images'), at('author'), at('source'), at('title')],
  video: [at('logo'), at('author'), at('video'), at('source'), at('title')],
  quiz: [at('logo'), at('author'), at('footNote')],
  story: [at('logo', 'story.logo', 'logo')],
  notification: [at('title'), at('source')],
  search: [at('title'), at('source')],
  banner: [at('images')],
};

/** The required properties of an advert type (none for a type without a list). */
export const requiredPropertiesOf = (type: string | null | undefined): readonly RequiredProperty[] => REQUIRED_WHEN_PUBLISHED[type ?? ''] ?? [];

function isMissing(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.filter((item) => !isMissing(item)).length === 0;
  return false;
}

/** An address field holding something else than an address (docs/content.md, address fields) does not count as filled. */
function isMissingAt(item: unknown, path: string): boolean {
  const value = valueAt(item, path);
  if (isMissing(value)) return true;
  const kind = CONTENT_URL_FIELDS[path];
  if (!kind) return false;
  const values = (Array.isArray(value) ? value : [value]).filter((entry) => !isMissing(entry));
  return values.every((entry) => typeof entry !== 'string' || !isContentUrl(entry, kind));
}

/** An advert as any of its holders has it (the server's model, the editor's draft): its type and its fields. */
type Checked = { type?: string | null };

/** The required properties of the advert's type that are empty, each as its spec name and editor field. */
export function missingRequired<T extends Checked>(advert: T): RequiredProperty[] {
  return requiredPropertiesOf(advert.type).filter((property) => property.paths.every((path) => isMissingAt(advert, path)));
}

/** The spec's names of the required properties of the advert's type that are empty. */
export function missingRequiredProperties<T extends Checked>(advert: T): string[] {
  return missingRequired(advert).map((property) => property.name);
}

/** How the editor labels a required property (docs/content.md, field labels: the message lists labels, never keys). */
export const requiredPropertyLabel = (property: RequiredProperty) => contentFieldLabel(property.paths[0]);

/** The editor's labels of the required properties of the advert's type that are empty. */
export function missingRequiredLabels<T extends Checked>(advert: T): string[] {
  return missingRequired(advert).map(requiredPropertyLabel);
}

/** 'Les propriétés [list] sont requises', the list (the fields' labels) joined by ', '. */
export function requiredPropertiesMessage(missing: readonly string[]): string {
  return ADVERT_MESSAGES.requiredProperties.replace('{list}', missing.join(', '));
}

/** An audience counts as expert when its roles include ROLE_EXPERT (spec §6). */
export function isExpertAudience(audience: { roles?: readonly string[] | null }): boolean {
  return (audience.roles ?? []).includes(EXPERT_ROLE);
}

/**
 * Why an advert may not be published, in the spec's words (empty: it may): required properties of its type,
 * a video for a video advert, at least one audience, and only expert audiences.
 */
export function advertPublicationProblems(
  advert: { type?: string | null } & Record<string, unknown>,
  audiences: readonly { roles: readonly string[] }[],
): string[] {
  const problems: string[] = [];
  if (advert.type === 'video' && isMissing(advert.video)) problems.push(ADVERT_MESSAGES.videoRequired);
  const missing = missingRequired(advert).filter((property) => !(advert.type === 'video' && property.name === 'video'));
  if (missing.length) problems.push(requiredPropertiesMessage(missing.map(requiredPropertyLabel)));
  if (!audiences.length) problems.push(ADVERT_MESSAGES.noAudience);
  else if (audiences.some((audience) => !isExpertAudience(audience))) problems.push(ADVERT_MESSAGES.nonExpertAudience);
  return problems;
}

/**
 * Articles: the spec gives no per-type list (§5); the one check its messages allow is the video of a video item.
 */
export function articlePublicationProblems(article: { type?: string | null; video?: unknown }): string[] {
  return article.type === 'video' && isMissing(article.video) ? [ADVERT_MESSAGES.videoRequired] : [];
}

/** Warnings are shown joined by ' / ' (spec §5). */
export const WARNING_SEPARATOR = ' / ';
