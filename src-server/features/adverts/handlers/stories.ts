import type { Handlers } from '../../../operations';
import type { ContentService } from '../content';

export type StoryHandlers = Pick<Handlers, 'stories.addScreen' | 'stories.removeScreen' | 'stories.reset'>;

/** A story advert's screens and its reset (adverts-articles.md §7 Stories). */
export function storyHandlers(content: ContentService): StoryHandlers {
  return {
    'stories.addScreen': async ({ params, body, account }) => content.addScreen('advert', params.id, body.screen, account, body.version),
    'stories.removeScreen': async ({ params, query, account }) =>
      content.removeScreen('advert', params.advertId, params.screenId, account, query.version),
    'stories.reset': async ({ params, account }) => content.resetStory(params.advertId, account),
  };
}
