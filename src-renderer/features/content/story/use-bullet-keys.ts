import { useAtom } from 'jotai';
import { useLayoutEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import type { StoryScreen } from '@shared/contract/content';
import { keyboardReorderStep, move, reorderAnnouncement } from '@shared/rules/story';
import { keyboardGrabAtom } from './atoms';
import type { ScreenEdits } from './use-screen-edits';

/** Reordering the bullets with the keyboard (§2.3), each key as keyboardReorderStep reads it; the moved bullet keeps the focus. */
export function useBulletKeys(
  screens: readonly StoryScreen[],
  readOnly: boolean,
  bullets: RefObject<Map<number, HTMLButtonElement>>,
  edit: { setScreens: ScreenEdits['setScreens']; select: (id: number) => void; announce: (said: string) => void },
) {
  const [grab, setGrab] = useAtom(keyboardGrabAtom);
  const { setScreens, select, announce } = edit;
  const focusAfterRender = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (focusAfterRender.current === null) return;
    bullets.current.get(focusAfterRender.current)?.focus();
    focusAfterRender.current = null;
  });

  return (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    if (readOnly) return;
    const grabbedHere = grab && screens[index]?.id === grab.screenId ? grab : null;
    const step = keyboardReorderStep({ index, grabbedFrom: grabbedHere ? grabbedHere.from : null }, event.key, { alt: event.altKey }, screens.length);
    if (step.kind === 'none') return;
    event.preventDefault();
    const id = screens[index].id;
    switch (step.kind) {
      case 'focus':
        select(screens[step.index].id);
        focusAfterRender.current = screens[step.index].id;
        break;
      case 'grab':
        select(id);
        setGrab({ screenId: id, from: index });
        break;
      case 'move':
      case 'cancel':
        setScreens(move(screens, step.from, step.to));
        select(id);
        focusAfterRender.current = id;
        if (step.kind === 'cancel') setGrab(null);
        break;
      case 'drop':
        setGrab(null);
        break;
    }
    const said = reorderAnnouncement(step, screens.length);
    if (said) announce(said);
  };
}
