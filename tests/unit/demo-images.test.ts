import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { demoCover, demoIllustration, demoLogo } from '../../src-server/features/adverts/demo-media';
import { Canvas, circle, rect } from '../../src-server/storage/demo-images';

/** The demo workspace's pictures (src-server/storage/demo-images.ts): real PNGs, the same bytes every time. */

const palette = { from: '#FB7185', to: '#BE123C', accent: '#9F1239' };
const pixel = (image: PNG, x: number, y: number) => Array.from(image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4));

describe('demo images', () => {
  it('a cover is a 640x360 PNG another decoder reads, the same bytes for the same arguments, others for another theme', () => {
    const cover = demoCover('heart', palette, 0);
    const image = PNG.sync.read(cover);
    expect([image.width, image.height]).toEqual([640, 360]);
    // Opaque everywhere, and not one flat colour.
    expect(pixel(image, 0, 0)[3]).toBe(255);
    expect(pixel(image, 0, 0)).not.toEqual(pixel(image, 639, 359));
    expect(demoCover('heart', palette, 0).equals(cover)).toBe(true);
    expect(demoCover('pills', palette, 0).equals(cover)).toBe(false);
    // Small enough to seed a few dozen.
    expect(cover.length).toBeLessThan(120_000);
  });

  it('a logo is a disc with its letter, transparent around; an illustration is transparent at its corners', () => {
    const logo = PNG.sync.read(demoLogo('C', palette));
    expect(logo.width).toBe(192);
    expect(pixel(logo, 0, 0)[3]).toBe(0);
    // The disc's edge (left of the letter) is the brand colour, opaque.
    const edge = pixel(logo, 20, 96);
    expect(edge[3]).toBe(255);
    expect(edge[0]).toBeGreaterThan(edge[2]);
    const illustration = PNG.sync.read(demoIllustration('leaf', palette.accent));
    expect(pixel(illustration, 0, 0)[3]).toBe(0);
    expect(pixel(illustration, 240, 240)[3]).toBe(255);
  });

  it('edges are anti-aliased: a pixel half covered by a shape is half its colour', () => {
    const canvas = new Canvas(10, 10, [0, 0, 0]);
    // The rectangle's right edge runs through the middle of column 5.
    canvas.draw(rect(2.5, 5, 3, 10), [255, 255, 255]);
    const image = PNG.sync.read(canvas.png());
    expect(pixel(image, 2, 5)[0]).toBe(255);
    expect(pixel(image, 5, 5)[0]).toBeGreaterThan(100);
    expect(pixel(image, 5, 5)[0]).toBeLessThan(155);
    expect(pixel(image, 8, 5)[0]).toBe(0);
    // A translucent shape over an opaque background stays opaque, its colour mixed.
    const mixed = new Canvas(4, 4, [0, 0, 0]);
    mixed.draw(circle(2, 2, 10), [255, 255, 255], 0.5);
    expect(pixel(PNG.sync.read(mixed.png()), 1, 1)).toEqual([128, 128, 128, 255]);
  });
});
