import { useAtom, useAtomValue } from 'jotai';
import { useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { StoryScreen } from '@shared/contract/content';
import { STORY_MESSAGES as S } from '@shared/messages/story';
import { inPositionOrder, move, reorderAnnouncement, screenNumber } from '@shared/rules/story';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { HighlightContext } from '../fields';
import type { ContentItem, StoryScreensApi } from '../types';
import { keyboardGrabAtom, reorderAnnouncementAtom, selectedScreenIdAtom, storyBusyAtom } from './atoms';
import { ScreenCanvas } from './ScreenCanvas';
import { ScreenCaptureButton } from './ScreenCaptureButton';
import { ScreenFields } from './ScreenFields';
import { useBulletDrag } from './use-bullet-drag';
import { useBulletKeys } from './use-bullet-keys';
import { useScreenCalls } from './use-screen-calls';
import { EMPTY_STORY, useScreenEdits } from './use-screen-edits';
import './story.css';

/**
 * The story screen editor (adverts-articles.md §2.3): the bullets of the screens (click to show one; drag and
 * drop with the pointer, or with the keyboard, to reorder), the 270x480 canvas of the selected screen, its
 * texts, link and colours (a red warning on an invalid colour, the save refusing it), add and delete (server
 * calls, delete after the 5 s confirm 'Supprimer l'écran n°{n}'). The order and the fields go into the draft's
 * story.screens and are saved with the advert; `media` renders the upload and library controls of a screen.
 */
export function StoryScreensEditor(props: {
  draft: ContentItem;
  patch: (patch: Partial<ContentItem>) => void;
  api?: StoryScreensApi;
  readOnly: boolean;
  /** `stored` says the change is on the server already (an upload): on its own no unsaved change. */
  media?: (screen: StoryScreen, setScreen: (change: Partial<StoryScreen>) => void, stored: (change: Partial<StoryScreen>) => void) => ReactNode;
}) {
  const { draft, patch, api, readOnly } = props;
  const [selectedId, setSelectedId] = useAtom(selectedScreenIdAtom);
  const [grab, setGrab] = useAtom(keyboardGrabAtom);
  const [announcement, announce] = useAtom(reorderAnnouncementAtom);
  const busy = useAtomValue(storyBusyAtom);
  const highlighted = useContext(HighlightContext).includes('story.screens');
  const story = draft.story ?? EMPTY_STORY;
  const screens = useMemo(() => inPositionOrder(story.screens), [story.screens]);
  const selectedIndex = Math.max(
    0,
    screens.findIndex((screen) => screen.id === selectedId),
  );
  const selected = screens[selectedIndex] as StoryScreen | undefined;
  const bullets = useRef(new Map<number, HTMLButtonElement>());
  const canvasRef = useRef<HTMLDivElement>(null);

  // Another advert: start again from its first screen.
  useEffect(() => {
    setSelectedId(null);
    setGrab(null);
    announce('');
  }, [draft.id, setSelectedId, setGrab, announce]);

  const { storyNow, setScreens, setScreen, storedScreens, storedScreen, storedVersion } = useScreenEdits(draft, patch);
  const select = (id: number) => setSelectedId(id);

  const onBulletKey = useBulletKeys(screens, readOnly, bullets, { setScreens, select, announce });

  const { dragView, suppressClick, onPointerDown, onPointerMove, endDrag } = useBulletDrag(screens, readOnly, bullets, (from, to) => {
    const id = screens[from].id;
    setScreens(move(screens, from, to));
    select(id);
    announce(reorderAnnouncement({ kind: 'drop', from, to }, screens.length) ?? '');
  });

  const { addScreen, removeScreen } = useScreenCalls(draft.id, api, screens, { storyNow, setScreens, storedScreens, storedVersion }, setSelectedId);

  return (
    <div
      className={`story-editor${highlighted ? ' highlighted' : ''}`}
      data-testid="story-editor"
      data-field="story.screens"
      data-highlighted={highlighted || undefined}
    >
      <div className="story-editor-bar">
        <ol className="story-bullets" aria-label={S.bulletsLabel} data-testid="story-bullets">
          {screens.map((screen, index) => {
            const isSelected = index === selectedIndex;
            const isGrabbed = grab?.screenId === screen.id;
            const dragging = dragView?.from === index;
            return (
              <li key={screen.id} className={dragView && dragView.target === index && !dragging ? 'drop-target' : undefined}>
                <button
                  type="button"
                  ref={(element) => {
                    if (element) bullets.current.set(screen.id, element);
                    else bullets.current.delete(screen.id);
                  }}
                  className={`story-bullet${isSelected ? ' selected' : ''}${isGrabbed ? ' grabbed' : ''}${dragging ? ' dragging' : ''}`}
                  style={dragging ? { transform: `translateX(${dragView.dx}px)` } : undefined}
                  tabIndex={isSelected ? 0 : -1}
                  aria-pressed={isSelected}
                  aria-label={`Écran n°${screenNumber(index)}${isGrabbed ? ' (saisi)' : ''}`}
                  aria-describedby="story-bullets-help"
                  data-testid="story-bullet"
                  data-screen-id={screen.id}
                  data-grabbed={isGrabbed || undefined}
                  onClick={() => {
                    if (suppressClick.current) {
                      suppressClick.current = false;
                      return;
                    }
                    select(screen.id);
                  }}
                  onKeyDown={(event) => onBulletKey(event, index)}
                  onBlur={() => {
                    // Leaving a picked-up bullet puts it down where it is.
                    if (isGrabbed) setGrab(null);
                  }}
                  onPointerDown={(event) => onPointerDown(event, index)}
                  onPointerMove={onPointerMove}
                  onPointerUp={(event) => endDrag(event, true)}
                  onPointerCancel={(event) => endDrag(event, false)}
                >
                  {screenNumber(index)}
                </button>
              </li>
            );
          })}
        </ol>
        <span id="story-bullets-help" className="visually-hidden">
          {S.bulletsLabel}
        </span>
        <span className="visually-hidden" aria-live="assertive" role="status" data-testid="story-announcement">
          {announcement}
        </span>
        {!readOnly && api && draft.id !== undefined && (
          <button type="button" className="secondary small" disabled={busy} onClick={() => void addScreen()} data-testid="story-add-screen">
            + Ajouter un écran
          </button>
        )}
        {!readOnly && draft.id !== undefined && selected && <ScreenCaptureButton advertId={draft.id} canvasRef={canvasRef} />}
        {!readOnly && api && draft.id !== undefined && selected && (
          <ConfirmButton
            message={S.confirmDeleteScreen(screenNumber(selectedIndex))}
            onConfirm={() => void removeScreen(selected)}
            className="link danger"
            testId="story-delete-screen"
          >
            <span>
              <svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
                <path d="M3 6h18M8 6V4h8v2M6 6l1 14h10l1-14" />
              </svg>{' '}
              Supprimer
            </span>
          </ConfirmButton>
        )}
      </div>
      {draft.id === undefined && (
        <p className="muted" data-testid="story-save-first">
          {S.saveFirst}
        </p>
      )}
      {draft.id !== undefined && screens.length === 0 && (
        <p className="muted" data-testid="story-no-screen">
          {S.noScreen}
        </p>
      )}
      {selected && (
        <div className="story-editor-body">
          <ScreenCanvas screen={selected} storyLogo={story.logo} ref={canvasRef} />
          <ScreenFields screen={selected} onChange={(change) => setScreen(selected.id, change)}>
            {props.media &&
              !readOnly &&
              draft.id !== undefined &&
              props.media(
                selected,
                (change) => setScreen(selected.id, change),
                (change) => storedScreen(selected.id, change),
              )}
          </ScreenFields>
        </div>
      )}
    </div>
  );
}
