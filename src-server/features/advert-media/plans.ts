import type { Advert } from '@shared/contract/adverts';
import { storySchema } from '@shared/contract/adverts';
import { MESSAGES } from '@shared/messages';
import type { AdvertAttachmentKind } from '@shared/rules/storage';
import { HttpError } from '../../errors';

/**
 * Where one upload goes and what it sets: `place` names the key (advert id, place, random part, extension), `set`
 * puts the URL on the advert. Planned once before storing (a missing advert, story or screen refuses the file
 * before a byte is kept) and again on the locked advert when saving.
 */
export interface MediaPlan {
  place: string;
  set(advert: Advert, url: string): Advert;
}

export function storyOf(advert: Advert): NonNullable<Advert['story']> {
  if (advert.type !== 'story') throw new HttpError(400, MESSAGES.notAStory, {}, 'advertId');
  // A story advert saved before its first screen may have no story yet: its defaults then.
  return advert.story ?? storySchema.parse({});
}

export function screenPlan(advert: Advert, screenId: number, field: 'logo' | 'illustration'): MediaPlan {
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

export function attachmentPlan(kind: AdvertAttachmentKind): MediaPlan {
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
