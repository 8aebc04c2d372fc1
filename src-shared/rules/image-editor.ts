/**
 * Geometry of the image-editor modal (adverts-articles.md §2.2: crop and resize an image before upload). Pure:
 * the renderer's canvas draws what these answer.
 */

export interface CropBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Largest side of an edited image: beyond, the upload's 10 MB would be reached by a PNG anyway. */
export const IMAGE_EDITOR_MAX_SIDE = 4096;

/** A crop box inside an image of `imageWidth` × `imageHeight`: whole pixels, at least 1×1, never outside. */
export function clampCrop(box: CropBox, imageWidth: number, imageHeight: number): CropBox {
  const x = Math.min(Math.max(0, Math.round(box.x)), Math.max(0, imageWidth - 1));
  const y = Math.min(Math.max(0, Math.round(box.y)), Math.max(0, imageHeight - 1));
  const width = Math.min(Math.max(1, Math.round(box.width)), imageWidth - x);
  const height = Math.min(Math.max(1, Math.round(box.height)), imageHeight - y);
  return { x, y, width, height };
}

/** The box between two points (a drag, either direction), clamped to the image. */
export function cropFromDrag(from: { x: number; y: number }, to: { x: number; y: number }, imageWidth: number, imageHeight: number): CropBox {
  return clampCrop(
    { x: Math.min(from.x, to.x), y: Math.min(from.y, to.y), width: Math.abs(to.x - from.x), height: Math.abs(to.y - from.y) },
    imageWidth,
    imageHeight,
  );
}

/** The output height for an output width keeping the crop's proportions (at least 1 px, at most the max side). */
export function heightForWidth(crop: CropBox, width: number): number {
  return Math.min(IMAGE_EDITOR_MAX_SIDE, Math.max(1, Math.round((width * crop.height) / crop.width)));
}

/** An output size as typed: whole pixels between 1 and the max side. */
export function clampSide(value: number): number {
  return Number.isFinite(value) ? Math.min(IMAGE_EDITOR_MAX_SIDE, Math.max(1, Math.round(value))) : 1;
}

/** The type and name of the edited file: JPEG stays JPEG, anything else becomes PNG (a GIF's frames are not kept). */
export function editedFileOf(sourceName: string): { type: 'image/png' | 'image/jpeg'; fileName: string } {
  const base =
    (sourceName.split(/[\\/]/).pop() ?? 'image')
      .replace(/\.[^.]*$/, '')
      .replace(/[^\p{L}\p{N}_-]+/gu, '-')
      .slice(0, 80) || 'image';
  return /\.jpe?g$/i.test(sourceName) ? { type: 'image/jpeg', fileName: `${base}.jpg` } : { type: 'image/png', fileName: `${base}.png` };
}
