export const articlesScreens = {
  articles: { load: () => import('./ArticlesListPage') },
  'articles.edit': { load: () => import('./ArticleEditPage') },
};
