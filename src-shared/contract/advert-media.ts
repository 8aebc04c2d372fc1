import { z } from 'zod';
import {
  ADVERT_ATTACHMENT_FORMATS,
  ADVERT_ATTACHMENT_KINDS,
  MEDIA_MAX_BYTES,
  STORY_ILLUSTRATION_FORMATS,
  STORY_IMAGE_FORMATS,
} from '../rules/storage';
import { contentWriters } from './adverts';
import { advertSchema } from './content';
import { defineOperation } from './define';
import { idParam } from './entities';

/**
 * Advert and story media uploads (adverts-articles.md §7 Uploads): multipart, the text fields then one file,
 * streamed to storage; the server stores it under a key made from the advert id and sets the advert's field.
 * SALES is refused like every advert write (spec §6).
 */
export const advertMediaAnswerSchema = z.object({
  /** The media URL set on the advert, with its `d` cache-busting parameter. */
  webpath: z.string(),
  /** The advert as saved with it. */
  advert: advertSchema,
});
export type AdvertMediaAnswer = z.infer<typeof advertMediaAnswerSchema>;

export const advertMediaFieldsSchema = z.strictObject({ advertId: idParam });
export const screenMediaFieldsSchema = z.strictObject({ advertId: idParam, screenId: idParam });

export const advertMediaOperations = {
  'adverts.uploadAttachment': defineOperation({
    method: 'POST',
    path: '/f/advert/attachment/:kind/upload',
    summary: "Uploads an advert's logo, cover image (image, first of images) or video (multipart: advertId, then file; 10 MB)",
    access: contentWriters,
    params: z.strictObject({ kind: z.enum(ADVERT_ATTACHMENT_KINDS) }),
    multipart: { fields: advertMediaFieldsSchema, maxFileBytes: MEDIA_MAX_BYTES, formats: ADVERT_ATTACHMENT_FORMATS },
    response: advertMediaAnswerSchema,
  }),
  'stories.uploadLogo': defineOperation({
    method: 'POST',
    path: '/f/advert/attachment/story/logo/upload',
    summary: "Uploads a story advert's logo (multipart: advertId, then file; images only)",
    access: contentWriters,
    multipart: { fields: advertMediaFieldsSchema, maxFileBytes: MEDIA_MAX_BYTES, formats: STORY_IMAGE_FORMATS },
    response: advertMediaAnswerSchema,
  }),
  'stories.uploadScreenLogo': defineOperation({
    method: 'POST',
    path: '/f/advert/attachment/story/screen/logo/upload',
    summary: 'Uploads the logo of one screen of a story advert (multipart: advertId, screenId, then file; images only)',
    access: contentWriters,
    multipart: { fields: screenMediaFieldsSchema, maxFileBytes: MEDIA_MAX_BYTES, formats: STORY_IMAGE_FORMATS },
    response: advertMediaAnswerSchema,
  }),
  'stories.uploadScreenIllustration': defineOperation({
    method: 'POST',
    path: '/f/advert/attachment/story/screen/upload',
    summary: 'Uploads the illustration of one screen of a story advert: an image, or a video (mp4, webm, ogg)',
    access: contentWriters,
    multipart: { fields: screenMediaFieldsSchema, maxFileBytes: MEDIA_MAX_BYTES, formats: STORY_ILLUSTRATION_FORMATS },
    response: advertMediaAnswerSchema,
  }),
};
