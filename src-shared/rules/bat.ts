/**
 * The proof (BAT) editor's constants and pure rules (adverts-articles.md §2.6, §9 "BAT constants as in 2.6"):
 * the grid the items sit on, arrows, item placement, zoom, the PDF, and the approval of frozen versions (not in
 * the spec: docs/content.md, BAT proofs). Unit-tested in tests/unit/bat-rules.test.ts; the server checks every save with them.
 */

// --- Grid and canvas (§2.6) ------------------------------------------------------------------------------------

export const BAT_GRID = { cols: 36, rowHeight: 18, maxRows: 40, margin: 10 } as const;
export const BAT_CANVAS = { width: 1000, height: 708 } as const;
/** A new text block (§2.6: 6 by 2) and a dropped or imported image (6 by 8), in grid cells. */
export const NEW_TEXT_SIZE = { w: 6, h: 2 } as const;
export const DROPPED_IMAGE_SIZE = { w: 6, h: 8 } as const;
export const ARROW_COLOR = 'red';
export const ARROW_SELECTED_COLOR = 'cyan';

export const BAT_ITEM_TYPES = ['image', 'text', 'arrow'] as const;
export type BatItemType = (typeof BAT_ITEM_TYPES)[number];

/** Pages and layers a proof may hold, items a layer may hold (not in the spec: bounds of a save). */
export const BAT_MAX_PAGES = 200;
export const BAT_MAX_LAYERS = 20;
export const BAT_MAX_ITEMS = 200;

export interface GridBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A grid cell's width on the 1000 px canvas (react-grid-layout's formula: the margin around every column). */
export const BAT_COLUMN_WIDTH = (BAT_CANVAS.width - BAT_GRID.margin * (BAT_GRID.cols + 1)) / BAT_GRID.cols;

/** Where a grid item sits on the canvas, in pixels (as react-grid-layout places it, padding = margin). */
export function gridToPixels(box: { x: number; y: number; w: number; h: number }): { left: number; top: number; width: number; height: number } {
  const { margin, rowHeight } = BAT_GRID;
  return {
    left: Math.round(margin + box.x * (BAT_COLUMN_WIDTH + margin)),
    top: Math.round(margin + box.y * (rowHeight + margin)),
    width: Math.round(box.w * BAT_COLUMN_WIDTH + Math.max(0, box.w - 1) * margin),
    height: Math.round(box.h * rowHeight + Math.max(0, box.h - 1) * margin),
  };
}

const isInt = (value: number) => Number.isInteger(value);

/** Why a box does not fit the grid (36 columns, at most 40 rows), or null when it does. */
export function gridBoxError(box: GridBox): string | null {
  if (![box.x, box.y, box.w, box.h].every(isInt)) return 'Les coordonnées doivent être des nombres entiers.';
  if (box.x < 0 || box.y < 0) return 'Un élément ne peut pas sortir de la page.';
  if (box.w < 1 || box.h < 1) return 'Un élément doit mesurer au moins une case.';
  if (box.x + box.w > BAT_GRID.cols) return `Un élément ne peut pas dépasser les ${BAT_GRID.cols} colonnes.`;
  if (box.y + box.h > BAT_GRID.maxRows) return `Un élément ne peut pas dépasser les ${BAT_GRID.maxRows} lignes.`;
  return null;
}

/** Why an arrow is not drawable: start (x, y) and end (w, h) in canvas pixels, all four non-zero (§2.6). */
export function arrowError(box: GridBox): string | null {
  if (![box.x, box.y, box.w, box.h].every(isInt)) return 'Les coordonnées doivent être des nombres entiers.';
  if ([box.x, box.y, box.w, box.h].some((value) => value === 0)) return 'Une flèche a besoin de ses quatre coordonnées.';
  if ([box.x, box.w].some((value) => value < 0 || value > BAT_CANVAS.width)) return 'Une flèche ne peut pas sortir de la page.';
  if ([box.y, box.h].some((value) => value < 0 || value > BAT_CANVAS.height)) return 'Une flèche ne peut pas sortir de la page.';
  return null;
}

/** The error of an item of any type, or null. */
export function itemError(item: GridBox & { type: BatItemType }): string | null {
  return item.type === 'arrow' ? arrowError(item) : gridBoxError(item);
}

/**
 * The arrow a drag draws (mouse-down at `start`, mouse-up at `end`, canvas pixels at zoom 1), or null when the
 * spec's rule refuses it: all four coordinates must be non-zero. Coordinates are rounded into the canvas.
 */
export function arrowFromDrag(start: { x: number; y: number }, end: { x: number; y: number }): GridBox | null {
  const clampX = (value: number) => Math.round(Math.min(BAT_CANVAS.width, Math.max(0, value)));
  const clampY = (value: number) => Math.round(Math.min(BAT_CANVAS.height, Math.max(0, value)));
  const box = { x: clampX(start.x), y: clampY(start.y), w: clampX(end.x), h: clampY(end.y) };
  if (box.x === box.w && box.y === box.h) return null;
  return arrowError(box) ? null : box;
}

const overlaps = (a: GridBox, b: GridBox) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * Where a new block of `size` goes among the layer's grid items (arrows are not on the grid): the first free
 * place, row by row, then column by column; null when the grid has no room (no collisions, §2.6).
 */
export function placeItem<T extends GridBox & { type: BatItemType }>(
  items: readonly T[],
  size: { w: number; h: number },
): { x: number; y: number } | null {
  const boxes = items.filter((item) => item.type !== 'arrow');
  for (let y = 0; y + size.h <= BAT_GRID.maxRows; y += 1) {
    for (let x = 0; x + size.w <= BAT_GRID.cols; x += 1) {
      const candidate = { x, y, ...size };
      if (!boxes.some((box) => overlaps(box, candidate))) return { x, y };
    }
  }
  return null;
}

/** Whether two grid items of a layer overlap (the grid allows no collisions). */
export function firstCollision(items: readonly (GridBox & { type: BatItemType; i: string })[]): [string, string] | null {
  const boxes = items.filter((item) => item.type !== 'arrow');
  for (let a = 0; a < boxes.length; a += 1) {
    for (let b = a + 1; b < boxes.length; b += 1) if (overlaps(boxes[a], boxes[b])) return [boxes[a].i, boxes[b].i];
  }
  return null;
}

// --- Zoom (§2.6: 0.7 to 1.0 in steps of 0.05) -----------------------------------------------------------------

export const BAT_ZOOM = { min: 0.7, max: 1, step: 0.05 } as const;

export function clampBatZoom(zoom: number): number {
  if (!Number.isFinite(zoom)) return BAT_ZOOM.max;
  const stepped = Math.round(zoom / BAT_ZOOM.step) * BAT_ZOOM.step;
  return Math.round(Math.min(BAT_ZOOM.max, Math.max(BAT_ZOOM.min, stepped)) * 100) / 100;
}

/**
 * The zoom a page opens at: the largest step whose canvas fits `width` pixels, or null when even the smallest does
 * not (the side panel then goes under the page rather than beside it).
 */
export function fittingBatZoom(width: number): number | null {
  for (let zoom = BAT_ZOOM.max; zoom >= BAT_ZOOM.min - 1e-9; zoom -= BAT_ZOOM.step) {
    const stepped = Math.round(zoom * 100) / 100;
    if (BAT_CANVAS.width * stepped <= width) return stepped;
  }
  return null;
}

// --- PDF (§2.6) -------------------------------------------------------------------------------------------------

export const BAT_PDF = {
  format: 'a4',
  orientation: 'landscape',
  quality: 2,
  scale: 3,
  width: BAT_CANVAS.width,
  height: BAT_CANVAS.height,
  fileName: 'bat.pdf',
  /** A4 landscape in PDF points. */
  pointsWidth: 841.89,
  pointsHeight: 595.28,
} as const;
export const BAT_PDF_MAX_BYTES = 100 * 1024 * 1024;

/**
 * Longest side of a screenshot accepted: the canvas' width at a device pixel ratio of 4 (a BAT page is drawn at
 * most that sharp). Whoever opens the proof or its PDF decodes the image whole (width × height × 4 bytes): a
 * 1 KB PNG may declare 60,000 × 60,000 px.
 */
export const SCREENSHOT_MAX_SIDE = BAT_CANVAS.width * 4;

/** A PNG's width and height from its IHDR chunk (right after the signature), undefined when the head holds none. */
export function pngSize(head: Uint8Array): { width: number; height: number } | undefined {
  const ihdr = [0x49, 0x48, 0x44, 0x52];
  if (head.length < 24 || !ihdr.every((byte, index) => head[12 + index] === byte)) return undefined;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

// --- Autosave (§2.6) ---------------------------------------------------------------------------------------------

export const BAT_AUTOSAVE_MS = 500;

// --- Versions with approval (docs/content.md, BAT proofs, not in the spec) ---------------------------------------------------------

export const BAT_VERSION_STATES = ['draft', 'sent', 'validated', 'changes_requested'] as const;
export type BatVersionState = (typeof BAT_VERSION_STATES)[number];

export const BAT_VERSION_STATE_LABELS: Record<BatVersionState, string> = {
  draft: 'Brouillon',
  sent: 'Envoyé au client',
  validated: 'Validé',
  changes_requested: 'Modifications demandées',
};

const TRANSITIONS: Record<BatVersionState, readonly BatVersionState[]> = {
  draft: ['sent'],
  sent: ['validated', 'changes_requested'],
  validated: [],
  changes_requested: [],
};

/** The states a version may move to: draft → envoyé au client → validé or modifications demandées. */
export const nextVersionStates = (state: BatVersionState): readonly BatVersionState[] => TRANSITIONS[state];

export function canMoveVersion(from: BatVersionState, to: BatVersionState): boolean {
  return TRANSITIONS[from].includes(to);
}
