import type { ArticleInput } from '@shared/contract/content';
import type { CallApi } from '../../bridge/api';
import type { ContentApi, ContentItem } from '../content';

function asInput(item: ContentItem): ArticleInput {
  const { _$audiences: _audiences, _$pinnedArticles: _pinned, _$criteria: _criteria, ...rest } = item;
  return rest as ArticleInput;
}

/** The article calls of adverts-articles.md §7 (publication by a property update, §4), for the shared screens. */
export function articleApi(call: CallApi): ContentApi {
  return {
    kind: 'article',
    listPath: '/articles',
    editPath: (id) => `/articles/edit/${id}`,
    convertedPath: (id) => `/adverts/edit/${id}`,
    load: (id) => call('articles.get', { params: { id } }),
    create: (item, audienceIds) => call('articles.create', { body: { article: asInput(item), audienceIds } }),
    update: (id, item, audienceIds) =>
      call('articles.update', {
        params: { id },
        body: { article: asInput(item), ...(audienceIds ? { audienceIds } : {}), ...(item.version ? { version: item.version } : {}) },
      }),
    publish: (id, request) =>
      call('articles.updateProperty', {
        params: { id, prop: 'published' },
        body: { value: request.publish, ...(request.version ? { version: request.version } : {}) },
      }),
    updateProperty: (id, prop, value) => call('articles.updateProperty', { params: { id, prop }, body: { value } }),
    duplicate: (id) => call('articles.duplicate', { params: { id } }),
    remove: (id, version) => call('articles.delete', { params: { id }, query: version ? { version } : {} }),
    convert: (id) => call('articles.migrate', { params: { id } }),
    history: (id) => call('articles.history', { params: { id } }),
    restore: (id, entryId) => call('articles.restore', { params: { id, entryId } }),
    storyScreens: {
      add: (id) => call('articles.addScreen', { params: { id }, body: {} }),
      remove: (id, screenId) => call('articles.removeScreen', { params: { id }, body: { screenId } }),
    },
    criteria: {
      get: (id) => call('articles.getAudience', { params: { id } }),
      set: (id, criteria) => call('articles.setAudienceCriteria', { params: { id }, body: { criteria } }),
      search: (label, term) => call('articles.searchCriteria', { query: { label, term } }),
    },
  };
}
