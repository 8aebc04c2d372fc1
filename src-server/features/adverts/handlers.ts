import type { Advert, Article } from '@shared/contract/adverts';
import { criteriaByLabel } from '@shared/rules/article-audience';
import type { ServerContext } from '../../context';
import { featureServices } from '../../feature-services';
import type { Handlers } from '../../operations';
import type { ContentService } from './content';
import { funnelService } from './funnels';
import { listItems, searchAdverts } from './queries';

export type AdvertHandlers = Pick<
  Handlers,
  | 'adverts.list'
  | 'adverts.get'
  | 'adverts.create'
  | 'adverts.duplicate'
  | 'adverts.update'
  | 'adverts.updateProperty'
  | 'adverts.publish'
  | 'adverts.delete'
  | 'adverts.attach'
  | 'adverts.migrate'
  | 'adverts.importMany'
  | 'adverts.migrationList'
  | 'adverts.migrationRun'
  | 'adverts.search'
  | 'adverts.history'
  | 'adverts.restore'
  | 'funnels.get'
  | 'funnels.create'
  | 'funnels.delete'
  | 'funnels.append'
  | 'funnels.updateMinViews'
  | 'stories.addScreen'
  | 'stories.removeScreen'
  | 'stories.reset'
>;

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

const asInput = (value: object | undefined) => (value ?? {}) as Record<string, unknown>;

export function advertHandlers(context: ServerContext, content: ContentService): AdvertHandlers {
  const funnels = funnelService(context.db);
  return {
    'adverts.list': async ({ body }) => listItems(context.db, 'advert', body),
    'adverts.get': async ({ params }) => content.load('advert', params.id) as Promise<Advert>,
    'adverts.create': async ({ body, account }) =>
      content.create('advert', asInput(body.advert), account, { targetId: body.targetId, audienceIds: body.audienceIds }),
    'adverts.duplicate': async ({ params, body, account }) => content.duplicate('advert', params.id, asInput(body.advert), account),
    'adverts.update': async ({ params, body, account }) =>
      content.update('advert', params.id, asInput(body.advert), account, body.audienceIds, body.version),
    'adverts.updateProperty': async ({ params, body, account }) =>
      content.updateProperty('advert', params.id, params.prop, body.value, account, body.version),
    'adverts.publish': async ({ params, body, account }) => content.publish('advert', params.id, body, account),
    'adverts.delete': async ({ params, query, account }) => content.remove('advert', params.id, account, query.version),
    'adverts.attach': async ({ body, account }) => content.attach('advert', body.advert.id, body.audienceIds, account),
    'adverts.migrate': async ({ params, account }) => content.migrate('advert', params.id, account),
    'adverts.importMany': async ({ body, account }) => content.importAdverts(body.rows, body.firstLine, account),
    'adverts.migrationList': async () => content.legacyItems(),
    'adverts.migrationRun': async ({ body, account }) => content.migrateLegacy(body.items, account),
    'adverts.search': async ({ query }) => searchAdverts(context.db, query.term, query.limit),
    'adverts.history': async ({ params }) => content.history('advert', params.id),
    'adverts.restore': async ({ params, account }) => content.restore('advert', params.id, params.entryId, account),

    'funnels.get': async ({ params }) => funnels.get(params.id),
    'funnels.create': async ({ params }) => funnels.create(params.id),
    'funnels.delete': async ({ params, body }) => funnels.remove(params.id, body.funnelUuid),
    'funnels.append': async ({ params, body }) => funnels.append(params.advertId, body),
    'funnels.updateMinViews': async ({ params, body }) => funnels.updateMinViews(params.startAdvertId, body),

    'stories.addScreen': async ({ params, body, account }) => content.addScreen('advert', params.id, body.screen, account, body.version),
    'stories.removeScreen': async ({ params, query, account }) =>
      content.removeScreen('advert', params.advertId, params.screenId, account, query.version),
    'stories.reset': async ({ params, account }) => content.resetStory(params.advertId, account),
  };
}

export function articleHandlers(context: ServerContext, content: ContentService): ArticleHandlers {
  // The article's own audience lives with the audiences (their engine keeps it current); met through the registry.
  const audience = () => {
    const service = featureServices(context).articleAudience;
    if (!service) throw new Error('the audiences feature is not built');
    return service;
  };
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
      content.update('article', params.id, asInput(body.article), account, body.audienceIds, body.version),
    'articles.updateProperty': async ({ params, body, account }) =>
      content.updateProperty('article', params.id, params.prop, body.value, account, body.version),
    'articles.delete': async ({ params, query, account }) => {
      const result = await content.remove('article', params.id, account, query.version);
      await audience().drop(params.id);
      return result;
    },
    'articles.addScreen': async ({ params, body, account }) => content.addScreen('article', params.id, body.screen, account, body.version),
    'articles.removeScreen': async ({ params, body, account }) => content.removeScreen('article', params.id, body.screenId, account, body.version),
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
