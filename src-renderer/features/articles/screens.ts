import type { FeatureScreens } from '../../lib/screen-sources';
export const articlesScreens = {
  articles: { load: () => import('./ArticlesListPage') },
  'articles.edit': { load: () => import('./ArticleEditPage') },
} satisfies FeatureScreens;
