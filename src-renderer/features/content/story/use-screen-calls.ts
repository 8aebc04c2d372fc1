import { useSetAtom } from 'jotai';
import type { StoryScreen } from '@shared/contract/content';
import { ADVERT_SCREEN_NOTICES as N } from '@shared/messages/advert-screens';
import { STORY_NOTICES as SN } from '@shared/messages/story';
import { inPositionOrder } from '@shared/rules/story';
import { raiseNoticeAtom } from '../../../lib/notices';
import { storyBusyAtom } from './atoms';
import type { ScreenEdits } from './use-screen-edits';
import type { StoryScreensApi } from '../types';

/** Adding and deleting screens: server calls, then the draft and its saved version take the answer. */
export function useScreenCalls(
  advertId: number | undefined,
  api: StoryScreensApi | undefined,
  screens: readonly StoryScreen[],
  edits: Pick<ScreenEdits, 'storyNow' | 'setScreens' | 'storedScreens' | 'storedVersion'>,
  select: (id: number | null) => void,
) {
  const raise = useSetAtom(raiseNoticeAtom);
  const setBusy = useSetAtom(storyBusyAtom);
  const { storyNow, setScreens, storedScreens, storedVersion } = edits;

  async function addScreen() {
    if (!api || advertId === undefined) return;
    setBusy(true);
    try {
      const result = await api.add(advertId);
      if (!result.ok) return raise(result.status === 403 ? N.userNotAllowed : N.serverError(result.errorMsg));
      // Only the new screen is taken from the answer: the draft keeps its unsaved changes (order, texts).
      const known = new Set(storyNow().screens.map((screen) => screen.id));
      const added = (result.data.story?.screens ?? []).filter((screen) => !known.has(screen.id));
      const ordered = inPositionOrder(storyNow().screens);
      setScreens([...ordered, ...added]);
      storedScreens((all) => [...all.filter((screen) => !added.some((entry) => entry.id === screen.id)), ...added]);
      storedVersion(result.data.version);
      if (added.length) select(added[added.length - 1].id);
      raise(SN.screenAdded);
    } finally {
      setBusy(false);
    }
  }

  async function removeScreen(screen: StoryScreen) {
    if (!api || advertId === undefined) return;
    setBusy(true);
    try {
      const result = await api.remove(advertId, screen.id);
      if (!result.ok) return raise(result.status === 403 ? N.userNotAllowed : N.serverError(result.errorMsg));
      const remaining = inPositionOrder(storyNow().screens).filter((entry) => entry.id !== screen.id);
      setScreens(remaining);
      storedScreens((all) => all.filter((entry) => entry.id !== screen.id));
      storedVersion(result.data.version);
      const index = screens.findIndex((entry) => entry.id === screen.id);
      select(remaining[Math.min(index, remaining.length - 1)]?.id ?? null);
      raise(SN.screenDeleted);
    } finally {
      setBusy(false);
    }
  }

  return { addScreen, removeScreen };
}
