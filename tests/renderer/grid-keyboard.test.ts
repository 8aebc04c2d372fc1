import { describe, expect, it } from 'vitest';
import { gridMove } from '../../src-renderer/features/projects/grid/grid-keyboard';

/** The target grid's keyboard moves (docs/projects.md, The grid): a spreadsheet's. */
describe('gridMove', () => {
  const size = { rows: 3, columns: 4 };

  it('moves one cell with the arrows and stops at the edges', () => {
    expect(gridMove({ row: 1, column: 1 }, 'up', size)).toEqual({ row: 0, column: 1 });
    expect(gridMove({ row: 1, column: 1 }, 'down', size)).toEqual({ row: 2, column: 1 });
    expect(gridMove({ row: 1, column: 1 }, 'left', size)).toEqual({ row: 1, column: 0 });
    expect(gridMove({ row: 1, column: 1 }, 'right', size)).toEqual({ row: 1, column: 2 });
    expect(gridMove({ row: 0, column: 0 }, 'up', size)).toEqual({ row: 0, column: 0 });
    expect(gridMove({ row: 0, column: 0 }, 'left', size)).toEqual({ row: 0, column: 0 });
    expect(gridMove({ row: 2, column: 3 }, 'down', size)).toEqual({ row: 2, column: 3 });
    expect(gridMove({ row: 2, column: 3 }, 'right', size)).toEqual({ row: 2, column: 3 });
  });

  it('goes on to the next or previous row with Tab and Shift+Tab, and leaves the grid past its ends', () => {
    expect(gridMove({ row: 0, column: 2 }, 'next', size)).toEqual({ row: 0, column: 3 });
    expect(gridMove({ row: 0, column: 3 }, 'next', size)).toEqual({ row: 1, column: 0 });
    expect(gridMove({ row: 1, column: 0 }, 'previous', size)).toEqual({ row: 0, column: 3 });
    expect(gridMove({ row: 2, column: 3 }, 'next', size)).toBeNull();
    expect(gridMove({ row: 0, column: 0 }, 'previous', size)).toBeNull();
  });
});
