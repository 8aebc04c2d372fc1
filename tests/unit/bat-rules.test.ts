import { describe, expect, it } from 'vitest';
import {
  BAT_GRID,
  arrowFromDrag,
  canMoveVersion,
  clampBatZoom,
  fittingBatZoom,
  firstCollision,
  gridBoxError,
  itemError,
  nextVersionStates,
  placeItem,
  type BatItemType,
} from '@shared/rules/bat';

/** The proof editor's rules (adverts-articles.md §2.6, §9; versions: docs/content.md, BAT proofs). */
describe('BAT rules', () => {
  it('keeps grid items within 36 columns and 40 rows', () => {
    expect(BAT_GRID).toEqual({ cols: 36, rowHeight: 18, maxRows: 40, margin: 10 });
    expect(gridBoxError({ x: 30, y: 38, w: 6, h: 2 })).toBeNull();
    expect(gridBoxError({ x: 31, y: 0, w: 6, h: 2 })).toMatch(/36 colonnes/);
    expect(gridBoxError({ x: 0, y: 39, w: 6, h: 2 })).toMatch(/40 lignes/);
    expect(gridBoxError({ x: -1, y: 0, w: 6, h: 2 })).not.toBeNull();
    expect(gridBoxError({ x: 0, y: 0, w: 0, h: 2 })).not.toBeNull();
    expect(gridBoxError({ x: 0.5, y: 0, w: 6, h: 2 })).not.toBeNull();
  });

  it('draws an arrow only with four non-zero coordinates inside the canvas', () => {
    expect(arrowFromDrag({ x: 10.4, y: 20 }, { x: 300, y: 400.6 })).toEqual({ x: 10, y: 20, w: 300, h: 401 });
    expect(arrowFromDrag({ x: 0, y: 20 }, { x: 300, y: 400 })).toBeNull();
    expect(arrowFromDrag({ x: 10, y: 20 }, { x: 10, y: 20 })).toBeNull();
    // Past the canvas edge the end is clamped to it.
    expect(arrowFromDrag({ x: 10, y: 20 }, { x: 5000, y: 900 })).toEqual({ x: 10, y: 20, w: 1000, h: 708 });
    expect(itemError({ type: 'arrow', x: 1, y: 1, w: 0, h: 5 })).not.toBeNull();
    expect(itemError({ type: 'arrow', x: 1, y: 1, w: 999, h: 700 })).toBeNull();
  });

  it('places a new block in the first free place and finds collisions', () => {
    const items: { i: string; x: number; y: number; w: number; h: number; type: BatItemType }[] = [
      { i: 'a', x: 0, y: 0, w: 6, h: 2, type: 'text' },
      { i: 'arrow', x: 5, y: 5, w: 300, h: 300, type: 'arrow' },
    ];
    expect(placeItem(items, { w: 6, h: 2 })).toEqual({ x: 6, y: 0 });
    expect(placeItem([{ i: 'full', x: 0, y: 0, w: 36, h: 40, type: 'image' }], { w: 6, h: 8 })).toBeNull();
    expect(firstCollision(items)).toBeNull();
    expect(firstCollision([...items, { i: 'b', x: 5, y: 1, w: 6, h: 2, type: 'text' }])).toEqual(['a', 'b']);
  });

  it('clamps the zoom to 0.7–1.0 on 0.05 steps', () => {
    expect(clampBatZoom(0.6)).toBe(0.7);
    expect(clampBatZoom(0.75 + 0.05)).toBe(0.8);
    expect(clampBatZoom(1.2)).toBe(1);
    expect(clampBatZoom(0.72)).toBe(0.7);
  });

  it('opens a page at the largest zoom step that fits, or none under 70 %', () => {
    expect(fittingBatZoom(1400)).toBe(1);
    expect(fittingBatZoom(1000)).toBe(1);
    expect(fittingBatZoom(999)).toBe(0.95);
    expect(fittingBatZoom(820)).toBe(0.8);
    expect(fittingBatZoom(700)).toBe(0.7);
    expect(fittingBatZoom(699)).toBeNull();
  });

  it('moves a version draft → sent → validated or changes requested, never back', () => {
    expect(nextVersionStates('draft')).toEqual(['sent']);
    expect(canMoveVersion('sent', 'validated')).toBe(true);
    expect(canMoveVersion('sent', 'changes_requested')).toBe(true);
    expect(canMoveVersion('draft', 'validated')).toBe(false);
    expect(canMoveVersion('validated', 'sent')).toBe(false);
    expect(canMoveVersion('changes_requested', 'validated')).toBe(false);
  });
});
