import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { contract, type MultipartSpec } from '@shared/contract';
import type { AdvertMediaAnswer } from '@shared/contract/advert-media';
import { storySchema, type Advert } from '@shared/contract/adverts';
import { MESSAGES } from '@shared/messages';
import { STORAGE_MESSAGES, formatNotAllowed } from '@shared/messages/storage';
import { advertMediaKey, attachmentFormats, checkKey, type AdvertAttachmentKind } from '@shared/rules/storage';
import type { ServerContext } from '../../context';
import { HttpError } from '../../errors';
import { featureServices } from '../../feature-services';
import type { Handlers } from '../../operations';
import { mediaUrl } from '../../storage/media';
import { receiveFile } from '../../storage/multipart';

type AdvertMediaHandlers = Pick<
  Handlers,
  'adverts.uploadAttachment' | 'stories.uploadLogo' | 'stories.uploadScreenLogo' | 'stories.uploadScreenIllustration'
>;
type MediaFields = { advertId: number; screenId?: number };
type Account = { id: number } | null;

/**
 * Where one upload goes and what it sets: `place` names the key (advert id, place, random part, extension), `set`
 * puts the URL on the advert. Planned once before storing (a missing advert, story or screen refuses the file
 * before a byte is kept) and again on the locked advert when saving.
 */
interface MediaPlan {
  place: string;
  set(advert: Advert, url: string): Advert;
}

function storyOf(advert: Advert): NonNullable<Advert['story']> {
  if (advert.type !== 'story') throw new HttpError(400, MESSAGES.notAStory, {}, 'advertId');
  // A story advert saved before its first screen may have no story yet: its defaults then.
  return advert.story ?? storySchema.parse({});
}

function screenPlan(advert: Advert, screenId: number, field: 'logo' | 'illustration'): MediaPlan {
  const story = storyOf(advert);
  if (!story.screens.some((screen) => screen.id === screenId)) throw new HttpError(404, MESSAGES.screenNotFound, {}, 'screenId');
  return {
    place: `story/screens/${screenId}/${field}`,
    set: (current, url) => {
      const currentStory = storyOf(current);
      if (!currentStory.screens.some((screen) => screen.id === screenId)) throw new HttpError(404, MESSAGES.screenNotFound, {}, 'screenId');
      return {
        ...current,
        story: { ...currentStory, screens: currentStory.screens.map((screen) => (screen.id === screenId ? { ...screen, [field]: url } : screen)) },
      };
    },
  };
}

function attachmentPlan(kind: AdvertAttachmentKind): MediaPlan {
  switch (kind) {
    case 'logo':
      return { place: 'logo', set: (advert, url) => ({ ...advert, logo: url }) };
    case 'video':
      return { place: 'video', set: (advert, url) => ({ ...advert, video: url }) };
    case 'cover':
      // The cover is the advert's image and the first of its images (spec §3: image, images[]).
      return {
        place: 'cover',
        set: (advert, url) => ({ ...advert, image: url, images: [url, ...advert.images.filter((image) => image !== url)].slice(0, 50) }),
      };
  }
}

/**
 * Advert and story media uploads (adverts-articles.md §7 Uploads, §5 upload rules): the file streamed to storage
 * under a key made from the advert id, then the advert's field set through the adverts feature's writes (lock,
 * publication check, history). A file whose advert write fails is deleted again.
 */
export function advertMediaFeature(context: ServerContext): AdvertMediaHandlers {
  const { storage } = context;
  const publicUrl = context.config.storage?.publicUrl;
  const writes = () => {
    const found = featureServices(context).advertWrites;
    if (!found) throw new Error('the adverts feature is not registered');
    return found;
  };

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
