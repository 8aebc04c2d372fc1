import type { ArticleFilters } from '@shared/contract/articles';
import { LIST_PAGE_SIZE } from '@shared/rules/advert-screens/list';
import { createEditorAtoms, createRowActionAtoms } from '../content';
import { createListAtoms } from '../../lib/list';
import { articleApi } from './api';

export type ArticleListFilters = Omit<ArticleFilters, 'skip' | 'limit' | 'term'>;

/** The store's default (platform.md §4): like adverts, not archived, latest model, updatedAt descending, isPinned unset. */
export const DEFAULT_ARTICLE_FILTERS: ArticleListFilters = { archived: false, model: 'latest', orderBy: 'updatedAt', order: 'DESC' };

export const articleList = createListAtoms('articles.list', {
  debugLabel: 'articles.list',
  pageSize: LIST_PAGE_SIZE,
  maxLimit: 1000,
  initialFilters: DEFAULT_ARTICLE_FILTERS,
  toInput: ({ skip, limit, term, filters }) => ({ body: { ...filters, skip, limit, ...(term ? { term } : {}) } }),
});

export const articleEditor = createEditorAtoms('articles.editor', articleApi);

/** Row menu (§2.4): archive sets archived true; duplicate; delete with confirmation. */
export const articleRowActions = createRowActionAtoms('article', articleApi, articleList);
