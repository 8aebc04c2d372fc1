import { describe, expect, it } from 'vitest';
import { clampCrop, clampSide, cropFromDrag, editedFileOf, heightForWidth, IMAGE_EDITOR_MAX_SIDE } from '@shared/rules/image-editor';

describe('image-editor geometry (spec §2.2: crop and resize before upload)', () => {
  it('keeps a crop box inside the image, in whole pixels, at least 1×1', () => {
    expect(clampCrop({ x: -5, y: 2.4, width: 500, height: 0 }, 200, 100)).toEqual({ x: 0, y: 2, width: 200, height: 1 });
    expect(clampCrop({ x: 250, y: 150, width: 10, height: 10 }, 200, 100)).toEqual({ x: 199, y: 99, width: 1, height: 1 });
  });

  it('makes a box from a drag in any direction', () => {
    expect(cropFromDrag({ x: 120, y: 80 }, { x: 20, y: 10 }, 200, 100)).toEqual({ x: 20, y: 10, width: 100, height: 70 });
  });

  it('resizes keeping proportions, bounded', () => {
    expect(heightForWidth({ x: 0, y: 0, width: 200, height: 100 }, 50)).toBe(25);
    expect(heightForWidth({ x: 0, y: 0, width: 1, height: 100 }, 100)).toBe(IMAGE_EDITOR_MAX_SIDE);
    expect(clampSide(0)).toBe(1);
    expect(clampSide(Number.NaN)).toBe(1);
    expect(clampSide(10_000)).toBe(IMAGE_EDITOR_MAX_SIDE);
  });

  it('names the edited file: JPEG stays JPEG, the rest becomes PNG, no odd characters', () => {
    expect(editedFileOf('C:\\photos\\Été 2026.JPG')).toEqual({ type: 'image/jpeg', fileName: 'Été-2026.jpg' });
    expect(editedFileOf('anim.gif')).toEqual({ type: 'image/png', fileName: 'anim.png' });
    expect(editedFileOf('.png')).toEqual({ type: 'image/png', fileName: 'image.png' });
  });
});
