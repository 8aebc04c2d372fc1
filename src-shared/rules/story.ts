import { isHexColour } from './advert-screens/save-checks';

/**
 * Pure rules of the story screen editor (adverts-articles.md §2.3, §3 Story and Screen, §5 colours): colour
 * checks, media kind of an illustration, screen numbering, and the reordering of screens by drag and drop and by
 * the keyboard. They take the few fields they read, so they are tested without a screen.
 */

/** The story canvas is 270x480 (§2.2). */
export const STORY_CANVAS = { width: 270, height: 480 } as const;

/** The six colour fields of a screen (§3 Screen), in the order the editor shows them. */
export const SCREEN_COLOUR_FIELDS = [
  'titleColor',
  'subtitleColor',
  'backgroundColor',
  'footerButtonTextColor',
  'footerChevronColor',
  'footerBgColor',
] as const;
export type ScreenColourField = (typeof SCREEN_COLOUR_FIELDS)[number];

/** A colour is #rgb or #rrggbb (§5); surrounding spaces are forgiven, as the save check forgives them. */
export const isValidStoryColour = (value: string | null | undefined) => typeof value === 'string' && isHexColour(value.trim());

/** The colour fields of a screen that show the red warning icon (§5): filled but not #rgb / #rrggbb. */
export function invalidColourFields(screen: Partial<Record<ScreenColourField, string | null>>): ScreenColourField[] {
  return SCREEN_COLOUR_FIELDS.filter((field) => {
    const value = screen[field];
    return value != null && value.trim() !== '' && !isValidStoryColour(value);
  });
}

/** Whether any screen of a story has a colour the save refuses ('Il y a une erreur dans le format d'une couleur de story'). */
export const storyHasInvalidColour = (screens: readonly Partial<Record<ScreenColourField, string | null>>[] | null | undefined) =>
  (screens ?? []).some((screen) => invalidColourFields(screen).length > 0);

/** What an <input type="color"> can show for a colour: #rrggbb, or null when the text is not a valid colour. */
export function toColourPickerValue(value: string | null | undefined): string | null {
  if (!isValidStoryColour(value)) return null;
  const hex = value!.trim().toLowerCase();
  return hex.length === 4 ? `#${hex[1]}${hex[1]}${hex[2]}${hex[2]}${hex[3]}${hex[3]}` : hex;
}

export const VIDEO_EXTENSIONS = ['mp4', 'webm', 'ogg'] as const;

/**
 * A screen is a video when its illustration ends in mp4, webm or ogg (§3); the extension is read from the path
 * (a `?d=` cache-busting query or a #fragment does not hide it), in any case. No illustration: 'none'.
 */
export function mediaKindOf(illustration: string | null | undefined): 'video' | 'image' | 'none' {
  const value = (illustration ?? '').trim();
  if (!value) return 'none';
  const path = value.split(/[?#]/)[0];
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return path.includes('.') && (VIDEO_EXTENSIONS as readonly string[]).includes(extension) ? 'video' : 'image';
}

/** Screens are numbered from 1 for people ('Supprimer l'écran n°{n}'): the number of the screen at `index`. */
export const screenNumber = (index: number) => index + 1;

/**
 * Moves the entry at `from` to `to` (both clamped to the list), the others keeping their order. A new array;
 * the same content when nothing moves.
 */
export function move<T>(list: readonly T[], from: number, to: number): T[] {
  const copy = [...list];
  if (copy.length === 0) return copy;
  const source = Math.min(Math.max(from, 0), copy.length - 1);
  const target = Math.min(Math.max(to, 0), copy.length - 1);
  if (source === target) return copy;
  const [entry] = copy.splice(source, 1);
  copy.splice(target, 0, entry);
  return copy;
}

/** The screens in their new order, each `position` being its index (the order the app shows, §3 Screen position). */
export function renumber<T extends { position?: number }>(screens: readonly T[]): T[] {
  return screens.map((screen, position) => (screen.position === position ? screen : { ...screen, position }));
}

/** Screens as stored, in the order of their `position` (ties keep their stored order). */
export function inPositionOrder<T extends { position?: number | null }>(screens: readonly T[]): T[] {
  return screens
    .map((screen, index) => ({ screen, index }))
    .sort((a, b) => (a.screen.position ?? a.index) - (b.screen.position ?? b.index) || a.index - b.index)
    .map((entry) => entry.screen);
}

/** Moves screen `from` to `to` and renumbers the positions. */
export const reorderScreens = <T extends { position?: number }>(screens: readonly T[], from: number, to: number) => renumber(move(screens, from, to));

/**
 * Where a bullet dragged with the pointer lands: the index whose bullet centre is the first one right of the
 * pointer, minus one when the dragged bullet was before it (it leaves its place). `centres` are the bullets'
 * horizontal centres in order.
 */
export function dropIndex(centres: readonly number[], pointerX: number, from: number): number {
  let slot = centres.findIndex((centre) => pointerX < centre);
  if (slot === -1) slot = centres.length;
  return slot > from ? slot - 1 : slot;
}

/** A bullet's keyboard state: the bullet that has the focus, and where the grabbed bullet started (null: none). */
export interface KeyboardReorderState {
  index: number;
  grabbedFrom: number | null;
}

export type KeyboardReorderStep =
  | { kind: 'none' }
  /** Focus another bullet (roving focus). */
  | { kind: 'focus'; index: number }
  /** Pick up the focused bullet (Space or Enter). */
  | { kind: 'grab'; index: number }
  /** Move the bullet; `commit` when the move is final (Alt+Arrow, which needs no pick-up). */
  | { kind: 'move'; from: number; to: number; commit: boolean }
  /** Put the grabbed bullet down where it is. */
  | { kind: 'drop'; from: number; to: number }
  /** Escape: the grabbed bullet goes back to where it started. */
  | { kind: 'cancel'; from: number; to: number };

const BACKWARD = ['ArrowLeft', 'ArrowUp'];
const FORWARD = ['ArrowRight', 'ArrowDown'];

/**
 * What a key does on a screen bullet (an accessible drag and drop, §2.3): Arrows move the focus; Alt+Arrow moves
 * the bullet at once; Space or Enter picks it up, then Arrows / Home / End move it, Space or Enter put it down
 * and Escape puts it back.
 */
export function keyboardReorderStep(state: KeyboardReorderState, key: string, modifiers: { alt?: boolean }, count: number): KeyboardReorderStep {
  const last = count - 1;
  const { index, grabbedFrom } = state;
  if (count === 0 || index < 0 || index > last) return { kind: 'none' };
  const target = BACKWARD.includes(key) ? index - 1 : FORWARD.includes(key) ? index + 1 : key === 'Home' ? 0 : key === 'End' ? last : null;
  if (grabbedFrom !== null) {
    if (target !== null)
      return target < 0 || target > last || target === index ? { kind: 'none' } : { kind: 'move', from: index, to: target, commit: false };
    if (key === ' ' || key === 'Enter') return { kind: 'drop', from: grabbedFrom, to: index };
    if (key === 'Escape') return { kind: 'cancel', from: index, to: grabbedFrom };
    return { kind: 'none' };
  }
  if (key === ' ' || key === 'Enter') return { kind: 'grab', index };
  if (target === null || target < 0 || target > last || target === index) return { kind: 'none' };
  return modifiers.alt ? { kind: 'move', from: index, to: target, commit: true } : { kind: 'focus', index: target };
}

/** What the live region says of a keyboard step (not in the spec), screens counted from 1. */
export function reorderAnnouncement(step: KeyboardReorderStep, count: number): string | null {
  switch (step.kind) {
    case 'grab':
      return `Écran n°${screenNumber(step.index)} saisi. Flèches pour le déplacer, Espace pour le déposer, Échap pour annuler.`;
    case 'move':
      return `Écran déplacé en position ${screenNumber(step.to)} sur ${count}.`;
    case 'drop':
      return `Écran déposé en position ${screenNumber(step.to)} sur ${count}.`;
    case 'cancel':
      return `Déplacement annulé, écran revenu en position ${screenNumber(step.to)}.`;
    default:
      return null;
  }
}
