import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import {
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  type Ref,
  type RefObject,
} from 'react';
import type { StoryScreen } from '@shared/contract/content';
import { ADVERT_SCREEN_NOTICES as N } from '@shared/messages/advert-screens';
import { STORY_MESSAGES as S, STORY_NOTICES as SN } from '@shared/messages/story';
import {
  dropIndex,
  inPositionOrder,
  invalidColourFields,
  keyboardReorderStep,
  mediaKindOf,
  move,
  renumber,
  reorderAnnouncement,
  SCREEN_COLOUR_FIELDS,
  screenNumber,
  STORY_CANVAS,
  toColourPickerValue,
  type ScreenColourField,
} from '@shared/rules/story';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { raiseNoticeAtom } from '../../../lib/notices';
import { useLatest } from '../../../lib/render-state';
import { FieldError, HighlightContext } from '../fields';
import { captureScreenshotAtom } from '../preview/capture';
import { PREVIEW_MESSAGES } from '@shared/messages/previews';
import { CONTENT_FIELD_MESSAGES } from '@shared/messages/content-fields';
import { isContentUrl } from '@shared/rules/content-urls';
import { useMarkStored } from '../stored-change';
import type { ContentApi, ContentItem } from '../types';
import { keyboardGrabAtom, reorderAnnouncementAtom, selectedScreenIdAtom, storyBusyAtom } from './atoms';
import './story.css';
import { mediaOf } from '../preview/parts';

type Story = NonNullable<ContentItem['story']>;
export type StoryScreensApi = NonNullable<ContentApi['storyScreens']>;

const EMPTY_STORY: Story = { logo: null, title: '', subtitle: '', position: null, forward: false, screens: [], isSeen: false, resetAt: null };

const COLOUR_LABELS: Record<ScreenColourField, string> = {
  titleColor: 'Couleur du titre',
  subtitleColor: 'Couleur du sous-titre',
  backgroundColor: 'Couleur du fond',
  footerButtonTextColor: 'Couleur du texte du bouton',
  footerChevronColor: 'Couleur du chevron',
  footerBgColor: 'Couleur du pied',
};

/** A colour the canvas may paint: the field when it is #rgb / #rrggbb, else the fallback. */
const paint = (value: string | null | undefined, fallback: string) => toColourPickerValue(value) ?? fallback;

/** The red warning icon of an invalid colour (§2.3, §5), drawn (no emoji font needed). */
export function ColourWarning(props: { field: string }) {
  return (
    <span className="colour-warning" role="img" aria-label={S.invalidColour} title={S.invalidColour} data-testid={`colour-warning-${props.field}`}>
      <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true">
        <path d="M12 2 1 21h22L12 2z" fill="#d33a2c" />
        <path d="M12 9v5" stroke="#fff" strokeWidth="2.4" strokeLinecap="round" />
        <circle cx="12" cy="17.5" r="1.3" fill="#fff" />
      </svg>
    </span>
  );
}

/** One colour of a screen: its text (#rgb / #rrggbb), a picker when the text is valid, and the warning otherwise. */
function ColourField(props: { field: ScreenColourField; value: string; invalid: boolean; onChange: (value: string) => void }) {
  const picker = toColourPickerValue(props.value);
  return (
    <label className={`field story-colour${props.invalid ? ' invalid' : ''}`} data-field={`screen.${props.field}`}>
      <span className="field-label">{COLOUR_LABELS[props.field]}</span>
      <span className="inline">
        <input
          type="color"
          value={picker ?? '#000000'}
          aria-label={`${COLOUR_LABELS[props.field]} (sélecteur)`}
          onChange={(event) => props.onChange(event.target.value.toUpperCase())}
          data-testid={`screen-colour-picker-${props.field}`}
        />
        <input
          type="text"
          value={props.value}
          maxLength={20}
          aria-invalid={props.invalid || undefined}
          onChange={(event) => props.onChange(event.target.value)}
          data-testid={`screen-colour-${props.field}`}
        />
        {props.invalid && <ColourWarning field={props.field} />}
      </span>
    </label>
  );
}

/** The 270x480 canvas of the selected screen (§2.3): its image or video, logo, texts and colours. */
function ScreenCanvas({ ref, ...props }: { screen: StoryScreen; storyLogo: string | null | undefined; ref?: Ref<HTMLDivElement> }) {
  const { screen } = props;
  const kind = mediaKindOf(screen.illustration);
  const logo = screen.logo || props.storyLogo;
  return (
    <div
      ref={ref}
      className="story-canvas"
      style={{ width: STORY_CANVAS.width, height: STORY_CANVAS.height, background: paint(screen.backgroundColor, '#c41723') }}
      data-testid="story-canvas"
      data-media-kind={kind}
      aria-label={`Écran n°${screenNumber(screen.position)}`}
    >
      <div className="story-canvas-media">
        {kind === 'video' && (
          <video
            key={screen.illustration}
            src={mediaOf(screen.illustration) ?? undefined}
            muted
            loop
            playsInline
            controls
            data-testid="story-canvas-video"
          />
        )}
        {kind === 'image' && (
          <img key={screen.illustration} src={mediaOf(screen.illustration) ?? undefined} alt="" data-testid="story-canvas-image" />
        )}
        {kind === 'none' && <span className="story-canvas-empty">Aucune image ou vidéo</span>}
      </div>
      {logo && mediaOf(logo) && <img className="story-canvas-logo" src={mediaOf(logo) ?? undefined} alt="Logo" data-testid="story-canvas-logo" />}
      <div className="story-canvas-texts">
        <p className="story-canvas-title" style={{ color: paint(screen.titleColor, '#ffffff') }} data-testid="story-canvas-title">
          {screen.title}
        </p>
        <p className="story-canvas-subtitle" style={{ color: paint(screen.subtitleColor, '#ffffff') }}>
          {screen.subtitle}
        </p>
      </div>
      <div className="story-canvas-footer" style={{ background: paint(screen.footerBgColor, '#c41723') }} data-testid="story-canvas-footer">
        <span style={{ color: paint(screen.footerButtonTextColor, '#ffffff') }}>{screen.footerButtonText}</span>
        <span className="story-canvas-chevron" style={{ color: paint(screen.footerChevronColor, '#ffffff') }} aria-hidden="true">
          ›
        </span>
      </div>
    </div>
  );
}

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
function useBulletDrag(
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

/** The texts, link and colours of the selected screen (a red warning on an invalid colour); `children` adds its media. */
function ScreenFields(props: { screen: StoryScreen; onChange: (change: Partial<StoryScreen>) => void; children?: ReactNode }) {
  const badLink = !isContentUrl(props.screen.link, 'link');
  return (
    <div className="story-screen-fields" data-testid="story-screen-fields" data-screen-id={props.screen.id}>
      <label className="field">
        <span className="field-label">Titre de l'écran</span>
        <input value={props.screen.title} onChange={(event) => props.onChange({ title: event.target.value })} data-testid="screen-title" />
      </label>
      <label className="field">
        <span className="field-label">Sous-titre de l'écran</span>
        <input value={props.screen.subtitle} onChange={(event) => props.onChange({ subtitle: event.target.value })} data-testid="screen-subtitle" />
      </label>
      <label className="field" data-field="story.screens.link">
        <span className="field-label">Lien</span>
        <input
          type="url"
          value={props.screen.link}
          placeholder="https://"
          aria-invalid={badLink || undefined}
          onChange={(event) => props.onChange({ link: event.target.value.trim() })}
          data-testid="screen-link"
        />
        {/* An address field holds an address (docs/content.md, address fields): said at the field, by its label. */}
        {badLink && (
          <span className="field-hint">
            <FieldError field="screen-link" message={CONTENT_FIELD_MESSAGES.invalidLink('Lien')} />
          </span>
        )}
      </label>
      <label className="field">
        <span className="field-label">Texte du bouton</span>
        <input
          value={props.screen.footerButtonText}
          onChange={(event) => props.onChange({ footerButtonText: event.target.value })}
          data-testid="screen-footerButtonText"
        />
      </label>
      <div className="story-colours">
        {SCREEN_COLOUR_FIELDS.map((field) => (
          <ColourField
            key={field}
            field={field}
            value={props.screen[field] ?? ''}
            invalid={invalidColourFields(props.screen).includes(field)}
            onChange={(value) => props.onChange({ [field]: value })}
          />
        ))}
      </div>
      {props.children}
    </div>
  );
}

/**
 * The story creator's screenshot button (adverts-articles.md §2.3): the selected screen's canvas goes to the
 * advert's BAT screenshots, as the preview's capture does ('Votre capture est disponible dans l'onglet BAT').
 */
function ScreenCaptureButton(props: { advertId: number; canvasRef: RefObject<HTMLDivElement | null> }) {
  const capture = useSetAtom(captureScreenshotAtom);
  const [capturing, setCapturing] = useState(false);
  async function take() {
    if (!props.canvasRef.current) return;
    setCapturing(true);
    try {
      await capture({ advertId: props.advertId, element: props.canvasRef.current });
    } finally {
      setCapturing(false);
    }
  }
  return (
    <button type="button" className="secondary small" disabled={capturing} onClick={() => void take()} data-testid="story-capture">
      {capturing ? PREVIEW_MESSAGES.capturing : S.captureScreen}
    </button>
  );
}

/**
 * How the draft's screens change. Async answers (add, remove) apply to the draft as it is when they come back, not
 * as it was when asked. A change the server stored (screen added, removed, media uploaded) is applied to the saved
 * version too, the same way, so on its own it is no unsaved change (docs/content.md, unsaved changes).
 */
function useScreenEdits(draft: ContentItem, patch: (patch: Partial<ContentItem>) => void) {
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

type ScreenEdits = ReturnType<typeof useScreenEdits>;

/** Reordering the bullets with the keyboard (§2.3), each key as keyboardReorderStep reads it; the moved bullet keeps the focus. */
function useBulletKeys(
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

/** Adding and deleting screens: server calls, then the draft and its saved version take the answer. */
function useScreenCalls(
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
