/** The lists' paging and export sizes (adverts-articles.md §7, §9). */

/** Spec §9: list pages of 25; the article list loads the next page within 1000 px, debounced 250 ms. */
export const LIST_PAGE_SIZE = 25;
export const ARTICLE_SCROLL_THRESHOLD_PX = 1000;
export const ARTICLE_SCROLL_DEBOUNCE_MS = 250;
/** Spec §7: CSV export sends skip 0, limit 1000, published true. */
export const CSV_EXPORT_LIMIT = 1000;
