/** The editors' audience search (adverts-articles.md §5, §7, §9). */

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
