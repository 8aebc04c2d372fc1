import { atom } from 'jotai';
import type { ArticleFilters } from '@shared/contract/articles';
import type { ContentRow } from '@shared/contract/content';
import { ADVERT_SCREEN_NOTICES as N } from '@shared/messages/advert-screens';
import { LIST_PAGE_SIZE } from '@shared/rules/advert-screens/list';
import { apiAtom } from '../../lib/bridge';
import { createEditorAtoms } from '../content';
import { createListAtoms } from '../../lib/list';
import { raiseNoticeAtom } from '../../lib/notices';
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

const refusedNotice = (result: { status: number; errorMsg: string }) => (result.status === 403 ? N.userNotAllowed : N.serverError(result.errorMsg));

/** Row menu (§2.4): archive sets archived true; duplicate; delete with confirmation. */
export const archiveArticleAtom = atom(null, async (get, set, row: ContentRow) => {
  const result = await articleApi(get(apiAtom)).updateProperty(row.id, 'archived', true);
  if (!result.ok) return set(raiseNoticeAtom, refusedNotice(result));
  set(raiseNoticeAtom, N.saved);
  if (get(articleList.filtersAtom).archived === false) set(articleList.removeItemAtom, row.id);
  else set(articleList.replaceItemAtom, { ...row, archived: true });
});
archiveArticleAtom.debugLabel = 'articles.archive';

export const duplicateArticleAtom = atom(null, async (get, set, id: number) => {
  const result = await articleApi(get(apiAtom)).duplicate(id);
  if (!result.ok) return set(raiseNoticeAtom, refusedNotice(result));
  set(raiseNoticeAtom, N.saved);
  await set(articleList.loadAtom, 0);
});
duplicateArticleAtom.debugLabel = 'articles.duplicate';

export const deleteArticleAtom = atom(null, async (get, set, id: number) => {
  const result = await articleApi(get(apiAtom)).remove(id);
  if (!result.ok) return set(raiseNoticeAtom, refusedNotice(result));
  set(raiseNoticeAtom, N.articleDeleted);
  set(articleList.removeItemAtom, id);
});
deleteArticleAtom.debugLabel = 'articles.delete';
