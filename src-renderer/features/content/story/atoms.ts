import { atom } from 'jotai';

/**
 * State of the story screen editor (adverts-articles.md §2.3), one concern per atom. The screens themselves live
 * in the editor's draft (story.screens), so a save sends them with the rest of the advert.
 */

/** The screen shown on the canvas, by its id (ids survive reordering; null: the first screen). */
export const selectedScreenIdAtom = atom<number | null>(null);
selectedScreenIdAtom.debugLabel = 'story.selectedScreenId';

/** The bullet picked up with the keyboard: its screen id and the index it started from (Escape puts it back). */
export const keyboardGrabAtom = atom<{ screenId: number; from: number } | null>(null);
keyboardGrabAtom.debugLabel = 'story.keyboardGrab';

/** What the live region last said about a move (read by screen readers). */
export const reorderAnnouncementAtom = atom('');
reorderAnnouncementAtom.debugLabel = 'story.reorderAnnouncement';

/** A server call of the editor under way (add, remove, upload): its buttons wait. */
export const storyBusyAtom = atom(false);
storyBusyAtom.debugLabel = 'story.busy';

/** Whether the media library modal is open. */
export const mediaLibraryOpenAtom = atom(false);
mediaLibraryOpenAtom.debugLabel = 'story.mediaLibraryOpen';
