import { z } from 'zod';
import { access } from '../roles';
import { ADVERT_TYPES } from '../rules/advert-model';
import { defineOperation } from './define';
import { epochField } from './content';
import { shortText } from './entities';
import { appUserReaders } from '../access-rules';

const userId = z.number().int().min(1).max(2_147_483_647);

/** An advert as decisioning serves it: what the app shows, plus the user's view count. */
export const servedAdvertSchema = z.object({
  id: z.number().int(),
  type: z.string().nullable(),
  name: z.string(),
  weight: z.number().int(),
  title: z.string(),
  subtitle: z.string(),
  tagline: z.string(),
  author: z.string(),
  source: z.string(),
  logo: z.string().nullable(),
  images: z.array(z.string()),
  video: z.string().nullable(),
  openIn: z.string().nullable(),
  buttonLabel: z.string(),
  footNote: z.string(),
  /** The audience that made the user eligible. */
  audienceId: z.number().int(),
  /** advert.view events of this user on the advert so far. */
  views: z.number().int(),
  maxViews: z.number().int(),
});
export type ServedAdvert = z.output<typeof servedAdvertSchema>;

export const decisionSchema = z.object({
  audiences: z.array(z.object({ id: z.number().int(), name: z.string() })),
  adverts: z.array(servedAdvertSchema),
});
export type Decision = z.output<typeof decisionSchema>;

const reportItemSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['advert', 'article']),
  name: z.string(),
  published: z.boolean(),
  autoStartAt: epochField.nullable(),
  autoStopAt: epochField.nullable(),
});

/**
 * Decisioning (docs/content.md): what the mobile app would be served, for the audience tester and the debug page.
 * Also open to the app platform's service token. Autopublish report, URL pre-fill.
 */
export const decisioningOperations = {
  'decisioning.adverts': defineOperation({
    method: 'POST',
    path: '/v2/advert',
    summary:
      "Adverts served to an app user: published, scheduled now, of the types asked, in one of the user's audiences, under maxViews, funnel rules; by weight",
    access: appUserReaders,
    serviceToken: 'ingest',
    body: z.strictObject({ userId, types: z.array(z.enum(ADVERT_TYPES)).min(1).max(ADVERT_TYPES.length) }),
    response: decisionSchema,
  }),
  'decisioning.search': defineOperation({
    method: 'POST',
    path: '/advert',
    summary: 'Search adverts served to an app user for keywords: as /v2/advert, of type search, whose audience keyword triggers match',
    access: appUserReaders,
    serviceToken: 'ingest',
    body: z.strictObject({
      userId,
      type: z.literal('search'),
      keywords: z.array(shortText(200)).max(50).default([]),
      tab: shortText(40).optional(),
      limit: z.number().int().min(1).max(500).default(50),
      /** false: every eligible search advert whatever its audience's keywords. */
      withAudience: z.boolean().default(true),
    }),
    response: decisionSchema,
  }),
  'autopublish.report': defineOperation({
    method: 'GET',
    path: '/autopublish/report',
    summary: 'Adverts and articles whose published state disagrees with their autoStartAt / autoStopAt (the alert bell)',
    access: access.authenticated,
    response: z.object({ shouldBePublished: z.array(reportItemSchema), shouldBeUnpublished: z.array(reportItemSchema) }),
  }),
  'url.parse': defineOperation({
    method: 'GET',
    path: '/url/parse',
    summary: 'Title, description, author, image and logo of a web page (Open Graph and meta tags), fetched by the server',
    access: access.authenticated,
    query: z.strictObject({ url: shortText(2000).min(1) }),
    response: z.object({
      title: z.string(),
      description: z.string(),
      author: z.string(),
      image: z.string().nullable(),
      logo: z.string().nullable(),
      /** The image or logo found whose address answers no image: they cannot be uploaded (spec §8 warnings). */
      unavailable: z.array(z.enum(['image', 'logo'])).optional(),
    }),
  }),
};
