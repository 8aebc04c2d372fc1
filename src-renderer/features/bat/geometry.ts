import type { CSSProperties } from 'react';
import { BAT_CANVAS, BAT_GRID } from '@shared/rules/bat';

/** A grid cell's width on the 1000 px canvas (react-grid-layout's formula: the margin around every column). */
export const COLUMN_WIDTH = (BAT_CANVAS.width - BAT_GRID.margin * (BAT_GRID.cols + 1)) / BAT_GRID.cols;

/** Where a grid item sits on the canvas, in pixels (as react-grid-layout places it, padding = margin). */
export function gridToPixels(box: { x: number; y: number; w: number; h: number }): { left: number; top: number; width: number; height: number } {
  const { margin, rowHeight } = BAT_GRID;
  return {
    left: Math.round(margin + box.x * (COLUMN_WIDTH + margin)),
    top: Math.round(margin + box.y * (rowHeight + margin)),
    width: Math.round(box.w * COLUMN_WIDTH + Math.max(0, box.w - 1) * margin),
    height: Math.round(box.h * rowHeight + Math.max(0, box.h - 1) * margin),
  };
}

/** A sanitised text style ('color: red; font-size: 14px;') as React's style object. */
export function styleObject(style: string | undefined): CSSProperties {
  const result: Record<string, string> = {};
  for (const declaration of (style ?? '').split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim();
    if (!['font-size', 'color', 'background-color'].includes(property)) continue;
    result[property.replace(/-([a-z])/g, (_m, letter: string) => letter.toUpperCase())] = declaration.slice(colon + 1).trim();
  }
  return result as CSSProperties;
}
