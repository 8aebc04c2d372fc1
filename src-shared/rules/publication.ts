import { ADVERT_MESSAGES } from '../messages/adverts';
import { EXPERT_ROLE } from './audiences';

/**
 * Publication rules of adverts-articles.md §5, shared by the server (which enforces them on every write that
 * publishes) and the editor (which warns before asking).
 */

/** Properties a published advert of each type must have (spec §5). */
export const REQUIRED_WHEN_PUBLISHED: Record<string, readonly string[]> = {
  post: ['logo', 'images', 'author', 'source', 'title'],
  video: ['logo', 'author', 'video', 'source', 'title'],
  quiz: ['logo', 'author', 'footNote'],
  story: ['logo'],
  notification: ['title', 'source'],
  search: ['title', 'source'],
};

function isMissing(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.filter((item) => !isMissing(item)).length === 0;
  return false;
}

/** The required properties of the advert's type that are empty. */
export function missingRequiredProperties(advert: { type?: string | null } & Record<string, unknown>): string[] {
  const required = REQUIRED_WHEN_PUBLISHED[advert.type ?? ''] ?? [];
  return required.filter((property) => isMissing(advert[property]));
}

/** 'Les propriétés [list] sont requises', the list joined by ', '. */
export function requiredPropertiesMessage(missing: readonly string[]): string {
  return ADVERT_MESSAGES.requiredProperties.replace('{list}', missing.join(', '));
}

/** An audience counts as expert when its roles include ROLE_EXPERT (spec §6). */
export function isExpertAudience(audience: { roles: readonly string[] }): boolean {
  return audience.roles.includes(EXPERT_ROLE);
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
  const missing = missingRequiredProperties(advert).filter((property) => !(advert.type === 'video' && property === 'video'));
  if (missing.length) problems.push(requiredPropertiesMessage(missing));
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
