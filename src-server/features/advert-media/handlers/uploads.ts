import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { contract, type MultipartSpec } from '@shared/contract';
import type { AdvertMediaAnswer } from '@shared/contract/advert-media';
import type { Advert } from '@shared/contract/adverts';
import { STORAGE_MESSAGES, formatNotAllowed } from '@shared/messages/storage';
import { advertMediaKey, attachmentFormats, checkKey } from '@shared/rules/storage';
import type { ServerContext } from '../../../context';
import { HttpError } from '../../../errors';
import type { AdvertWrites } from '../../../feature-services';
import type { Handlers } from '../../../operations';
import { mediaUrl } from '../../../storage/media';
import { receiveFile } from '../../../storage/multipart';
import { attachmentPlan, screenPlan, storyOf, type MediaPlan } from '../plans';

export type AdvertMediaHandlers = Pick<
  Handlers,
  'adverts.uploadAttachment' | 'stories.uploadLogo' | 'stories.uploadScreenLogo' | 'stories.uploadScreenIllustration'
>;
type MediaFields = { advertId: number; screenId?: number };
type Account = { id: number } | null;

/**
 * Advert and story media uploads (adverts-articles.md §7 Uploads, §5 upload rules): the file streamed to storage
 * under a key made from the advert id, then the advert's field set through the adverts feature's writes (lock,
 * publication check, history). A file whose advert write fails is deleted again.
 */
export function advertMediaHandlers(context: ServerContext, writes: () => AdvertWrites): AdvertMediaHandlers {
  const { storage } = context;
  const publicUrl = context.config.storage?.publicUrl;

  function receiveMedia(
    request: FastifyRequest,
    operation: keyof AdvertMediaHandlers,
    account: Account,
    plan: (advert: Advert, fields: MediaFields) => MediaPlan,
    formats?: readonly string[],
  ): Promise<AdvertMediaAnswer> {
    return receiveFile<MediaFields, AdvertMediaAnswer>(request, contract[operation].multipart as MultipartSpec, async (file) => {
      if (formats && !formats.includes(file.extension)) throw new HttpError(400, formatNotAllowed(formats));
      const { advertId } = file.fields;
      const { place } = plan(await writes().load(advertId), file.fields);
      const key = advertMediaKey(advertId, place, randomBytes(4).toString('hex'), file.extension);
      if (!checkKey(key).ok) throw new HttpError(400, STORAGE_MESSAGES.unsafeKey);
      const webpath = mediaUrl(publicUrl, await storage.put(key, file.body, file.contentType));
      try {
        const advert = await writes().change(advertId, account, (current) => plan(current, file.fields).set(current, webpath));
        return { webpath, advert };
      } catch (error) {
        await storage.delete(key).catch(() => undefined);
        throw error;
      }
    });
  }

  return {
    'adverts.uploadAttachment': async ({ request, params, account }) =>
      receiveMedia(request, 'adverts.uploadAttachment', account, () => attachmentPlan(params.kind), attachmentFormats(params.kind)),
    'stories.uploadLogo': async ({ request, account }) =>
      receiveMedia(request, 'stories.uploadLogo', account, (advert) => {
        storyOf(advert);
        return { place: 'story/logo', set: (current, url) => ({ ...current, story: { ...storyOf(current), logo: url } }) };
      }),
    'stories.uploadScreenLogo': async ({ request, account }) =>
      receiveMedia(request, 'stories.uploadScreenLogo', account, (advert, fields) => screenPlan(advert, fields.screenId!, 'logo')),
    'stories.uploadScreenIllustration': async ({ request, account }) =>
      receiveMedia(request, 'stories.uploadScreenIllustration', account, (advert, fields) => screenPlan(advert, fields.screenId!, 'illustration')),
  };
}
