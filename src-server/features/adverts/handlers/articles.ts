import type { Article } from '@shared/contract/adverts';
import { criteriaByLabel } from '@shared/rules/article-audience';
import type { ServerContext } from '../../../context';
import type { ArticleAudienceService } from '../../../feature-services';
import type { Handlers } from '../../../operations';
import type { ContentService } from '../content';
import { listItems } from '../queries';
import { asInput, basedOnVersion } from './shared';

export type ArticleHandlers = Pick<
  Handlers,
  | 'articles.list'
  | 'articles.get'
  | 'articles.create'
  | 'articles.duplicate'
  | 'articles.update'
  | 'articles.updateProperty'
  | 'articles.delete'
  | 'articles.addScreen'
  | 'articles.removeScreen'
  | 'articles.migrate'
  | 'articles.getAudience'
  | 'articles.setAudienceCriteria'
  | 'articles.searchCriteria'
  | 'articles.history'
  | 'articles.restore'
>;

/**
 * Articles (docs/content.md). The article's own audience lives with the audiences (their engine keeps it current):
 * `audience` is the audiences feature's service for it.
 */
export function articleHandlers(context: ServerContext, content: ContentService, audience: () => ArticleAudienceService): ArticleHandlers {
  return {
    'articles.list': async ({ body }) => listItems(context.db, 'article', body),
    'articles.get': async ({ params }) => content.load('article', params.id) as Promise<Article>,
    'articles.create': async ({ body, account }) => content.create('article', asInput(body.article), account, { audienceIds: body.audienceIds }),
    'articles.duplicate': async ({ params, account }) => {
      const copy = await content.duplicate('article', params.id, undefined, account);
      const own = await audience().get(params.id);
      if (own.audienceId === null) return copy;
      await audience().setCriteria(copy.id, criteriaByLabel(own.criteria), account);
      return content.load('article', copy.id) as Promise<Article>;
    },
    'articles.update': async ({ params, body, account }) =>
      content.update('article', params.id, asInput(body.article), account, body.audienceIds, basedOnVersion(body.version, body.article, 'article')),
    'articles.updateProperty': async ({ params, body, account }) =>
      content.updateProperty('article', params.id, params.prop, body.value, account, body.version),
    'articles.delete': async ({ params, query, account }) => {
      const result = await content.remove('article', params.id, account, query.version);
      await audience().drop(params.id);
      return result;
    },
    'articles.addScreen': async ({ params, body, account }) =>
      content.addScreen('article', params.id, body.screen, account, basedOnVersion(body.version, body.article, 'article')),
    'articles.removeScreen': async ({ params, body, account }) =>
      content.removeScreen('article', params.id, body.screenId, account, basedOnVersion(body.version, body.article, 'article')),
    'articles.migrate': async ({ params, account }) => {
      // Converting detaches the audience (spec §4): the article's own one is deleted with the article.
      const result = await content.migrate('article', params.id, account);
      await audience().drop(params.id);
      return result;
    },
    'articles.getAudience': async ({ params }) => audience().get(params.id),
    'articles.setAudienceCriteria': async ({ params, body, account }) => audience().setCriteria(params.id, body.criteria, account),
    'articles.searchCriteria': async ({ query }) => audience().search(query.label, query.term, query.limit),
    'articles.history': async ({ params }) => content.history('article', params.id),
    'articles.restore': async ({ params, account }) => content.restore('article', params.id, params.entryId, account),
  };
}
