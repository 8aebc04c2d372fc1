import { atom } from 'jotai';
import { BAT_ZOOM } from '@shared/rules/bat';

/**
 * The proof editor's view (adverts-articles.md §2.6): zoom, layout, tools, the selected item, the library and the PDF
 * export under way. Feature state in atoms like the proof's (atoms/state.ts), reset when another proof opens
 * (openBatAtom). DOM refs, the Lexical editor instance and a drag's rectangle stay in their components: they are
 * transient and belong to one mounted element.
 */

/** The page's zoom: the largest that fits on arrival (BatEditorView measures it), then the user's. */
export const batZoomAtom = atom<number>(BAT_ZOOM.max);
batZoomAtom.debugLabel = 'bat.zoom';

/** The side panel under the page rather than beside it (the editor too narrow for both). */
export const batStackedAtom = atom(false);
batStackedAtom.debugLabel = 'bat.stacked';

/** 'Ajouter une flèche' pressed: the next drag on the page draws an arrow. */
export const batDrawingAtom = atom(false);
batDrawingAtom.debugLabel = 'bat.drawing';

/** The item (its `i`) selected on the page, or none. */
export const batSelectedItemAtom = atom<string | null>(null);
batSelectedItemAtom.debugLabel = 'bat.selectedItem';

/** The preview's screenshots shown beside the page. */
export const batLibraryOpenAtom = atom(true);
batLibraryOpenAtom.debugLabel = 'bat.libraryOpen';

export interface BatExportProgress {
  done: number;
  total: number;
}

/** The PDF export under way: pages drawn of the total, or null. */
export const batExportProgressAtom = atom<BatExportProgress | null>(null);
batExportProgressAtom.debugLabel = 'bat.exportProgress';

/** 'Annuler' pressed during the export: it stops between two pages. */
export const batExportCancelledAtom = atom(false);
batExportCancelledAtom.debugLabel = 'bat.exportCancelled';

/** Another proof opens: its view starts as a fresh one. */
export const resetBatViewAtom = atom(null, (_get, set) => {
  set(batZoomAtom, BAT_ZOOM.max);
  set(batStackedAtom, false);
  set(batDrawingAtom, false);
  set(batSelectedItemAtom, null);
  set(batLibraryOpenAtom, true);
  set(batExportProgressAtom, null);
  set(batExportCancelledAtom, false);
});
resetBatViewAtom.debugLabel = 'bat.resetView';
