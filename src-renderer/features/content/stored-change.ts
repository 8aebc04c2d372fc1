import { createContext, useContext } from 'react';
import type { ContentItem } from './types';

/**
 * A change the server has already stored (an upload that set the logo, image, video or a story media; a story
 * screen added or removed): the editor applies it to the draft as usual, and also to the draft's saved version
 * through this, so the change alone does not count as unsaved (docs/content.md, unsaved changes: no « Quitter sans enregistrer ? »
 * for an upload that is on the server). Other unsaved changes of the draft still count.
 */
export type MarkStored = (apply: (item: ContentItem) => ContentItem) => void;

export const MarkStoredContext = createContext<MarkStored>(() => undefined);

export function useMarkStored(): MarkStored {
  return useContext(MarkStoredContext);
}
