/** The content types of adverts and articles (adverts-articles.md §2.2). Times are epoch seconds (spec §3). */

export const ADVERT_TYPES = ['post', 'search', 'story', 'quiz', 'tool', 'notification', 'video', 'banner'] as const;
export type AdvertTypeName = (typeof ADVERT_TYPES)[number];
export const ARTICLE_TYPES = ['post', 'video', 'quiz', 'story', 'search', 'tool', 'notification'] as const;
