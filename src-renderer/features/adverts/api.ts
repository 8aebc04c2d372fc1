import type { AdvertInput } from '@shared/contract/content';
import type { CallApi } from '../../bridge/api';
import type { ContentApi, ContentItem } from '../content';

/** The item as the advert calls take it: the editor's draft, without the audiences (sent as `audienceIds`). */
function asInput(item: ContentItem): AdvertInput {
  const { _$audiences: _audiences, ...rest } = item;
  return rest as AdvertInput;
}

/** The advert calls of adverts-articles.md §7, as the shared editor and list use them. */
export function advertApi(call: CallApi): ContentApi {
  return {
    kind: 'advert',
    listPath: '/adverts',
    editPath: (id) => `/adverts/edit/${id}`,
    convertedPath: (id) => `/articles/edit/${id}`,
    load: (id) => call('adverts.get', { params: { id } }),
    // Created from a project target (/adverts/edit/project-…): the target is linked by the same call, and the
    // audiences too (one transaction on the server).
    create: (item, audienceIds) =>
      call('adverts.create', {
        body: { advert: asInput(item), ...(item.targetId ? { targetId: item.targetId } : {}), ...(audienceIds.length ? { audienceIds } : {}) },
      }),
    // One call, one transaction (docs/content.md, "The editor"): the fields and, when they changed, the audiences, based on the
    // version the editor started from.
    update: (id, item, audienceIds) =>
      call('adverts.update', {
        params: { id },
        body: { advert: asInput(item), ...(audienceIds ? { audienceIds } : {}), ...(item.version ? { version: item.version } : {}) },
      }),
    publish: (id, request) =>
      call('adverts.publish', {
        params: { id },
        body: {
          publish: request.publish,
          updateDates: request.updateDates,
          ...(request.delayReason ? { target: { delayReason: request.delayReason } } : {}),
          ...(request.version ? { version: request.version } : {}),
        },
      }),
    updateProperty: (id, prop, value) => call('adverts.updateProperty', { params: { id, prop }, body: { value } }),
    duplicate: (id) => call('adverts.duplicate', { params: { id }, body: {} }),
    remove: (id, version) => call('adverts.delete', { params: { id }, query: version ? { version } : {} }),
    convert: (id) => call('adverts.migrate', { params: { id } }),
    history: (id) => call('adverts.history', { params: { id } }),
    restore: (id, entryId) => call('adverts.restore', { params: { id, entryId } }),
    funnels: {
      get: (id) => call('funnels.get', { params: { id } }),
      create: (id) => call('funnels.create', { params: { id } }),
      remove: (advertId, funnelUuid) => call('funnels.delete', { params: { id: advertId }, body: { funnelUuid } }),
      append: (advertId, funnelUuid, newAdvertId) => call('funnels.append', { params: { advertId }, body: { funnelUuid, newAdvertId } }),
      updateMinViews: (startAdvertId, funnelUuid, nextAdvertId, minViews) =>
        call('funnels.updateMinViews', { params: { startAdvertId }, body: { funnelUuid, nextAdvertId, minViews } }),
      search: (term) => call('adverts.search', { query: { term, limit: 25 } }),
    },
    resetStory: (advertId) => call('stories.reset', { params: { advertId } }),
    proofSummary: (advertId) => call('bat.summary', { params: { advertId } }),
    storyScreens: {
      add: (id) => call('stories.addScreen', { params: { id }, body: {} }),
      remove: (advertId, screenId) => call('stories.removeScreen', { params: { advertId, screenId } }),
    },
  };
}
