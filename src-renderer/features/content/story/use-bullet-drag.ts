import { useRef, useState, type PointerEvent, type RefObject } from 'react';
import type { StoryScreen } from '@shared/contract/content';
import { dropIndex } from '@shared/rules/story';

interface PointerDrag {
  pointerId: number;
  from: number;
  startX: number;
  centres: number[];
  moved: boolean;
  target: number;
}

/**
 * Reordering the bullets with the pointer: a press that moves 4 px drags the bullet, the drop lands it between the
 * bullets' centres; a drag ends without the click that would select.
 */
export function useBulletDrag(
  screens: readonly StoryScreen[],
  readOnly: boolean,
  bullets: RefObject<Map<number, HTMLButtonElement>>,
  onDrop: (from: number, to: number) => void,
) {
  const drag = useRef<PointerDrag | null>(null);
  const suppressClick = useRef(false);
  const [dragView, setDragView] = useState<{ from: number; target: number; dx: number } | null>(null);

  function onPointerDown(event: PointerEvent<HTMLButtonElement>, index: number) {
    suppressClick.current = false;
    if (readOnly || event.button !== 0 || screens.length < 2) return;
    const centres = screens.map((screen) => {
      const rect = bullets.current.get(screen.id)?.getBoundingClientRect();
      return rect ? rect.left + rect.width / 2 : 0;
    });
    drag.current = { pointerId: event.pointerId, from: index, startX: event.clientX, centres, moved: false, target: index };
    event.currentTarget.setPointerCapture(event.pointerId);
  }

  function onPointerMove(event: PointerEvent<HTMLButtonElement>) {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const dx = event.clientX - current.startX;
    if (!current.moved && Math.abs(dx) < 4) return;
    current.moved = true;
    current.target = dropIndex(current.centres, event.clientX, current.from);
    setDragView({ from: current.from, target: current.target, dx });
  }

  function endDrag(event: PointerEvent<HTMLButtonElement>, dropped: boolean) {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    drag.current = null;
    setDragView(null);
    if (!current.moved) return;
    suppressClick.current = true;
    if (!dropped || current.target === current.from) return;
    onDrop(current.from, current.target);
  }

  return { dragView, suppressClick, onPointerDown, onPointerMove, endDrag };
}
