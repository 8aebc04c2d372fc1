import { DEFAULT_STORY_COLOR, TAGLINE_TRUNCATION } from './advert-model';

/**
 * The previews of the advert and article editors (adverts-articles.md §2.2, §3 Artefact / Story / Screen, §5
 * colours and tagline, §9): what the mobile app would show, computed from the item's current editor state. Pure,
 * so that the preview is a function of the draft and nothing else; unit-tested in tests/unit/preview.test.ts.
 */

export const PREVIEW_TYPES = ['post', 'video', 'quiz', 'story', 'search', 'notification', 'tool', 'banner'] as const;
export type PreviewType = (typeof PREVIEW_TYPES)[number];

export function isPreviewType(type: string | null | undefined): type is PreviewType {
  return (PREVIEW_TYPES as readonly string[]).includes(type ?? '');
}

/** What the preview pane shows (§2.2): a new advert has none yet; an item without a type cannot have one. */
export type PreviewState = 'new' | 'typeMissing' | 'unknownType' | 'ready';
export function previewState(item: { id?: number; type?: string | null }): PreviewState {
  if (item.id === undefined) return 'new';
  if (!item.type) return 'typeMissing';
  return isPreviewType(item.type) ? 'ready' : 'unknownType';
}

// --- Canvas sizes (§2.2: 270x480 for a story, 618x360 for a video) -------------------------------------------

/** Width of a feed card in the app (a phone's width in CSS pixels); not in the spec. */
export const CARD_WIDTH = 360;
export const STORY_SIZE = { width: 270, height: 480 } as const;
export const VIDEO_SIZE = { width: 618, height: 360 } as const;

/** The canvas of a type: fixed for story and video, the card width with the height of its content otherwise. */
export function canvasSize(type: PreviewType): { width: number; height: number | null } {
  if (type === 'story') return { ...STORY_SIZE };
  if (type === 'video') return { ...VIDEO_SIZE };
  return { width: CARD_WIDTH, height: null };
}

// --- Zoom (§2.2, §9: 0.5 to 1, step 0.05; 0.9 when expanded) -----------------------------------------------

export const ZOOM_MIN = 0.5;
export const ZOOM_MAX = 1;
export const ZOOM_STEP = 0.05;
export const ZOOM_EXPANDED = 0.9;

/** A zoom on the 0.05 grid between 0.5 and 1 (floating sums such as 0.55 + 0.05 land back on the grid). */
export function clampZoom(zoom: number): number {
  if (!Number.isFinite(zoom)) return ZOOM_MAX;
  const stepped = Math.round(zoom / ZOOM_STEP) * ZOOM_STEP;
  return Math.round(Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, stepped)) * 100) / 100;
}
export const zoomIn = (zoom: number) => clampZoom(zoom + ZOOM_STEP);
export const zoomOut = (zoom: number) => clampZoom(zoom - ZOOM_STEP);

/**
 * The zoom a preview opens with: 0.9 when expanded (§2.2); otherwise the largest step at which the canvas fits
 * the pane's width, never under 0.5.
 */
export function initialZoom(type: PreviewType, expanded: boolean, paneWidth: number): number {
  if (expanded) return ZOOM_EXPANDED;
  const { width } = canvasSize(type);
  return clampZoom(Math.floor(paneWidth / width / ZOOM_STEP) * ZOOM_STEP);
}

// --- Toolbar (§2.2) --------------------------------------------------------------------------------------------

/** Story and quiz have an expanded view (the story at full size, the quiz's three-step flow). */
export const canExpand = (type: PreviewType) => type === 'story' || type === 'quiz';
/** 'Créer une capture de la preview': post and video, or quiz and story when the preview is expanded. */
export function canCapture(type: PreviewType, expanded: boolean): boolean {
  if (type === 'post' || type === 'video') return true;
  return expanded && canExpand(type);
}
/** The edit-BAT button, for every type but search. */
export const hasBatButton = (type: PreviewType) => type !== 'search';
export const batPath = (advertId: number) => `/advert/bat/${advertId}`;

// --- Texts (§5: tagline cut at 180 characters, 'Lire la suite' when showReadMore) ----------------------------

export const READ_MORE = 'Lire la suite';

/**
 * The tagline as the app shows it: with showReadMore on (the default), a tagline longer than 180 characters is cut
 * at 180 (counted in characters, never splitting one) and followed by 'Lire la suite'; with it off, whole.
 */
export function cutTagline(tagline: string | null | undefined, showReadMore: boolean | undefined): { text: string; readMore: boolean } {
  const characters = Array.from(tagline ?? '');
  if (showReadMore === false || characters.length <= TAGLINE_TRUNCATION) return { text: characters.join(''), readMore: false };
  return { text: `${characters.slice(0, TAGLINE_TRUNCATION).join('').trimEnd()}…`, readMore: true };
}

/** The host name shown under a search result or a link ('' when the source is not a URL). */
export function sourceHost(source: string | null | undefined): string {
  try {
    return new URL(source ?? '').hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

/**
 * A media URL the page may show: the app's CSP loads images and videos from its own origin only (uploads are
 * served there under /cdn/), so another site's URL — a pre-filled image not uploaded yet — shows as a
 * placeholder instead of a refused load. Answers the URL to use, or null.
 */
export function displayableMedia(url: string | null | undefined, origin: string): string | null {
  if (!url) return null;
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  if (/^(data:image\/|blob:)/i.test(url)) return url;
  try {
    return new URL(url).origin === origin ? url : null;
  } catch {
    return null;
  }
}

/** The letter shown in place of a missing logo. */
export function initialOf(text: string | null | undefined): string {
  const first = Array.from((text ?? '').trim())[0];
  return first ? first.toUpperCase() : '?';
}

// --- Colours (§3: call-to-action colours; story default #C41723; §5 #rgb / #rrggbb) ---------------------------

const HEX_COLOUR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
export const isHexColour = (value: string | null | undefined): value is string => HEX_COLOUR.test(value ?? '');

export const ARTICLE_CTA = { textColor: '#FFFFFF', backgroundColor: DEFAULT_STORY_COLOR } as const;
export const ADVERT_CTA = { textColor: '#1F2430', backgroundColor: '#EEF0F3' } as const;

/**
 * The call-to-action button: the item's own colours when both are valid, else the app's: white on red for
 * articles, dark on light otherwise (§3 Artefact callToAction).
 */
export function callToActionColours(
  kind: 'advert' | 'article',
  callToAction: { textColor?: string | null; backgroundColor?: string | null } | null | undefined,
): { textColor: string; backgroundColor: string } {
  if (callToAction && isHexColour(callToAction.textColor) && isHexColour(callToAction.backgroundColor)) {
    return { textColor: callToAction.textColor, backgroundColor: callToAction.backgroundColor };
  }
  return kind === 'article' ? { ...ARTICLE_CTA } : { ...ADVERT_CTA };
}

/** A story colour: a valid hex colour as typed, else the story default #C41723. */
export const storyColour = (value: string | null | undefined, fallback: string = DEFAULT_STORY_COLOR) => (isHexColour(value) ? value : fallback);

// --- Story and quiz ----------------------------------------------------------------------------------------------

/** A screen is a video when its illustration ends in mp4, webm or ogg (§3 Screen). */
export const isVideoIllustration = (url: string | null | undefined) => /\.(mp4|webm|ogg)(\?.*)?$/i.test(url ?? '');

/** The story's screens in the order the app plays them (position, then id). */
export function orderedScreens<S extends { id: number; position?: number | null }>(screens: readonly S[] | null | undefined): S[] {
  return [...(screens ?? [])].sort((a, b) => (a.position ?? 0) - (b.position ?? 0) || a.id - b.id);
}

/** The quiz's three steps in the app (§2.2 "three-step flow"): answer, see the results, follow the link. */
export const QUIZ_STEPS = ['answer', 'results', 'more'] as const;
export type QuizStep = (typeof QUIZ_STEPS)[number];
export const nextQuizStep = (step: QuizStep): QuizStep => QUIZ_STEPS[Math.min(QUIZ_STEPS.length - 1, QUIZ_STEPS.indexOf(step) + 1)];

/** A result bar's width: the question's percentage, bounded and whole. */
export const percentageOf = (value: number | null | undefined) => Math.round(Math.min(100, Math.max(0, Number.isFinite(value) ? Number(value) : 0)));

// --- BAT screenshots (§7 BAT: POST multipart /bat/screenshot/upload, PNG files, answers webpath[]) -----------

export const BAT_ROOT = 'assets/bat';
export const SCREENSHOT_FORMATS = ['png'] as const;
/** A capture of a 618x360 canvas at twice its size is well under 2 MB; 10 MB bounds a capture as media are. */
export const SCREENSHOT_MAX_BYTES = 10 * 1024 * 1024;
/** The file name of a capture: the advert and the moment, sortable. */
export function screenshotFileName(advertId: number, at: Date): string {
  return `preview-${advertId}-${at.toISOString().replace(/[:.]/g, '-')}.png`;
}
