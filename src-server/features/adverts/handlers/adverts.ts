import type { Advert } from '@shared/contract/adverts';
import type { ServerContext } from '../../../context';
import type { Handlers } from '../../../operations';
import type { ContentService } from '../content';
import { listItems, searchAdverts } from '../queries';
import { asInput, basedOnVersion } from './shared';

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
>;

/** Adverts (docs/content.md): the list, the editor's calls, publication, CSV import, legacy migration and history. */
export function advertHandlers(context: ServerContext, content: ContentService): AdvertHandlers {
  return {
    'adverts.list': async ({ body }) => listItems(context.db, 'advert', body),
    'adverts.get': async ({ params }) => content.load('advert', params.id) as Promise<Advert>,
    'adverts.create': async ({ body, account }) =>
      content.create('advert', asInput(body.advert), account, { targetId: body.targetId, audienceIds: body.audienceIds }),
    'adverts.duplicate': async ({ params, body, account }) => content.duplicate('advert', params.id, asInput(body.advert), account),
    'adverts.update': async ({ params, body, account }) =>
      content.update('advert', params.id, asInput(body.advert), account, body.audienceIds, basedOnVersion(body.version, body.advert, 'advert')),
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
  };
}
