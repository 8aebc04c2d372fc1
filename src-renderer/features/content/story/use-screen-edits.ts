import type { StoryScreen } from '@shared/contract/content';
import { inPositionOrder, renumber } from '@shared/rules/story';
import { useLatest } from '../../../lib/render-state';
import { useMarkStored } from '../stored-change';
import type { ContentItem } from '../types';

type Story = NonNullable<ContentItem['story']>;

/** The story of an item that has none yet: no screen. */
export const EMPTY_STORY: Story = { logo: null, title: '', subtitle: '', position: null, forward: false, screens: [], isSeen: false, resetAt: null };

/**
 * How the draft's screens change. Async answers (add, remove) apply to the draft as it is when they come back, not
 * as it was when asked. A change the server stored (screen added, removed, media uploaded) is applied to the saved
 * version too, the same way, so on its own it is no unsaved change (docs/content.md, unsaved changes).
 */
export function useScreenEdits(draft: ContentItem, patch: (patch: Partial<ContentItem>) => void) {
  const latest = useLatest(draft);
  const markStored = useMarkStored();
  const storyNow = () => latest.current.story ?? EMPTY_STORY;
  const setScreens = (next: StoryScreen[]) => patch({ story: { ...storyNow(), screens: renumber(next) } });
  const setScreen = (id: number, change: Partial<StoryScreen>) =>
    setScreens(inPositionOrder(storyNow().screens).map((screen) => (screen.id === id ? { ...screen, ...change } : screen)));
  const storedScreens = (next: (screens: StoryScreen[]) => StoryScreen[]) =>
    markStored((item) => (item.story ? { ...item, story: { ...item.story, screens: renumber(next(inPositionOrder(item.story.screens))) } } : item));
  const storedScreen = (id: number, change: Partial<StoryScreen>) =>
    storedScreens((all) => all.map((screen) => (screen.id === id ? { ...screen, ...change } : screen)));
  /** A screen added or removed moved the advert's version: the next save is based on it. */
  const storedVersion = (version: number | undefined) => markStored((item) => ({ ...item, version }));
  return { storyNow, setScreens, setScreen, storedScreens, storedScreen, storedVersion };
}

export type ScreenEdits = ReturnType<typeof useScreenEdits>;
