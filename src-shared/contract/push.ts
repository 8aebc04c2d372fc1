import { z } from 'zod';
import { PUSH_MESSAGES } from '../messages/push';
import { access } from '../roles';
import { DEFAULT_AREA, DEFAULT_CUSTOM_ID, EXPERT_CHOICES, PUSH_BODY_MAX, PUSH_CAMPAIGN_STATES, PUSH_CLAUSE_MAX, PUSH_TITLE_MAX } from '../rules/push';
import { isContentUrl } from '../rules/content-urls';
import { defineOperation } from './define';
import { idParam, shortText } from './entities';

/** Push notifications are CONTENT_CREATOR_LEAD's (platform.md §2 menu); ADMIN passes every role check (§6). */
const pushSenders = access.anyOf('CONTENT_CREATOR_LEAD');

const listEntry = z.union([z.number().int().min(0).max(1_000_000), shortText(100)]);

/** The targeting `where` (§3 Push notification, §5 Push targeting). */
export const pushWhereSchema = z.strictObject({
  // §5: area must be a non-empty string, otherwise 'Invalid area' (the handler answers it, naming where.area).
  area: shortText(60).default(DEFAULT_AREA),
  professions: z.array(z.number().int().min(1).max(1_000_000)).max(100).default([]),
  specialties: z.array(listEntry).max(500).default([]),
  titles: z.array(shortText(60)).max(20).default([]),
  os: z.array(shortText(60)).max(10).default([]),
  expert: z.enum(EXPERT_CHOICES).default('all'),
  /** The security clause, in the filter language (README "Push campaigns"). */
  clause: shortText(PUSH_CLAUSE_MAX).default(''),
});
export type PushWhereInput = z.input<typeof pushWhereSchema>;

export const pushNotificationSchema = z.strictObject({
  title: shortText(PUSH_TITLE_MAX).min(1, PUSH_MESSAGES.titleRequired),
  body: shortText(PUSH_BODY_MAX).min(1, PUSH_MESSAGES.bodyRequired),
  /** The link or deeplink opened by the notification: http(s) or a deeplink of the app, as an advert's links. */
  navigation: shortText(2000)
    .refine((value) => isContentUrl(value, 'link'), PUSH_MESSAGES.navigationInvalid)
    .default(''),
  customId: shortText(100).min(1).default(DEFAULT_CUSTOM_ID),
});

export const pushBatchSchema = z.object({
  batch: z.number().int(),
  sentAt: z.number().int(),
  users: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  instance: z.string(),
});

export const pushCampaignSchema = z.object({
  id: z.number().int(),
  createdBy: z.string(),
  /** Epoch milliseconds. */
  createdAt: z.number().int(),
  title: z.string(),
  body: z.string(),
  navigation: z.string(),
  customId: z.string(),
  summary: z.string(),
  total: z.number().int(),
  batchSize: z.number().int(),
  iterations: z.number().int(),
  /** Batches already sent ('n / iterations'). */
  done: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  state: z.enum(PUSH_CAMPAIGN_STATES),
  provider: z.string(),
  startedAt: z.number().int().nullable(),
  finishedAt: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type PushCampaign = z.infer<typeof pushCampaignSchema>;

export const pushCampaignDetailSchema = pushCampaignSchema.extend({
  where: z.record(z.string(), z.unknown()),
  batches: z.array(pushBatchSchema),
});
export type PushCampaignDetail = z.infer<typeof pushCampaignDetailSchema>;

const campaignParams = z.strictObject({ id: idParam });

export const pushOperations = {
  'push.count': defineOperation({
    method: 'POST',
    path: '/push/count',
    summary: 'Counts the app users with a push token that the targeting selects (answered from the audience engine)',
    access: pushSenders,
    body: z.strictObject({ where: pushWhereSchema }),
    response: z.object({ counter: z.number().int() }),
  }),
  'push.send': defineOperation({
    method: 'POST',
    path: '/push/campaigns',
    summary: "Creates a campaign; the server's job sends it in batches of 1,000 users, 1.8 s apart",
    access: pushSenders,
    body: z.strictObject({ notification: pushNotificationSchema, where: pushWhereSchema }),
    response: pushCampaignSchema,
    successStatus: 201,
  }),
  'push.list': defineOperation({
    method: 'GET',
    path: '/push/campaigns',
    summary: 'The campaign history, newest first (the 100 latest)',
    access: pushSenders,
    response: z.object({ items: z.array(pushCampaignSchema) }),
  }),
  'push.get': defineOperation({
    method: 'GET',
    path: '/push/campaigns/:id',
    summary: "One campaign with its targeting and batches (progress of a running one, the history's detail)",
    access: pushSenders,
    params: campaignParams,
    response: pushCampaignDetailSchema,
  }),
  'push.cancel': defineOperation({
    method: 'POST',
    path: '/push/campaigns/:id/cancel',
    summary: 'Stops a campaign before its next batch',
    access: pushSenders,
    params: campaignParams,
    response: pushCampaignSchema,
  }),
};
