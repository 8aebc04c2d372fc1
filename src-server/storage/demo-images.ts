import { deflateSync } from 'node:zlib';

/**
 * A tiny deterministic painter for the demo workspace's media (covers, logos, story illustrations): shapes as
 * signed distance functions in pixels, so every edge is anti-aliased without a canvas library, and a PNG encoder
 * over node:zlib. Same arguments, same bytes: seeding twice writes identical files.
 */

export type Rgb = readonly [number, number, number];

/** A shape: its signed distance (negative inside, in pixels) and the box outside of which it paints nothing. */
export interface Shape {
  distance(x: number, y: number): number;
  box: readonly [number, number, number, number];
}

const clamp01 = (value: number) => (value < 0 ? 0 : value > 1 ? 1 : value);
// Math.hypot is several times slower than this in V8, and these run for every pixel of every shape.
const length = (x: number, y: number) => Math.sqrt(x * x + y * y);

export function hex(colour: string): Rgb {
  const value = Number.parseInt(colour.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

// --- Shapes ------------------------------------------------------------------------------------------------------

export function circle(cx: number, cy: number, r: number): Shape {
  return { distance: (x, y) => length(x - cx, y - cy) - r, box: [cx - r, cy - r, cx + r, cy + r] };
}

export function ring(cx: number, cy: number, r: number, width: number): Shape {
  return {
    distance: (x, y) => Math.abs(length(x - cx, y - cy) - r) - width / 2,
    box: [cx - r - width, cy - r - width, cx + r + width, cy + r + width],
  };
}

/** A rectangle centred on (cx, cy), half sizes hw × hh, rounded corners, turned by `angle` radians. */
export function rect(cx: number, cy: number, hw: number, hh: number, radius = 0, angle = 0): Shape {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const reach = length(hw, hh);
  return {
    distance: (x, y) => {
      const dx = x - cx;
      const dy = y - cy;
      const px = Math.abs(dx * cos + dy * sin) - hw + radius;
      const py = Math.abs(-dx * sin + dy * cos) - hh + radius;
      return length(Math.max(px, 0), Math.max(py, 0)) + Math.min(Math.max(px, py), 0) - radius;
    },
    box: [cx - reach, cy - reach, cx + reach, cy + reach],
  };
}

function segmentDistance(x: number, y: number, ax: number, ay: number, bx: number, by: number): number {
  const ex = bx - ax;
  const ey = by - ay;
  const t = clamp01(((x - ax) * ex + (y - ay) * ey) / (ex * ex + ey * ey || 1));
  return length(x - ax - ex * t, y - ay - ey * t);
}

/** A line of `width` with round ends and joins through `points` ([x, y] pairs). */
export function stroke(points: readonly (readonly [number, number])[], width: number): Shape {
  const xs = points.map((point) => point[0]);
  const ys = points.map((point) => point[1]);
  return {
    distance: (x, y) => {
      let best = Infinity;
      for (let i = 1; i < points.length; i += 1)
        best = Math.min(best, segmentDistance(x, y, points[i - 1][0], points[i - 1][1], points[i][0], points[i][1]));
      return best - width / 2;
    },
    box: [Math.min(...xs) - width, Math.min(...ys) - width, Math.max(...xs) + width, Math.max(...ys) + width],
  };
}

/** A filled polygon (any simple polygon; the exact distance, so edges stay sharp). */
export function polygon(points: readonly (readonly [number, number])[]): Shape {
  const xs = points.map((point) => point[0]);
  const ys = points.map((point) => point[1]);
  return {
    distance: (x, y) => {
      let best = (x - points[0][0]) ** 2 + (y - points[0][1]) ** 2;
      let sign = 1;
      for (let i = 0, j = points.length - 1; i < points.length; j = i, i += 1) {
        const [vx, vy] = points[i];
        const ex = points[j][0] - vx;
        const ey = points[j][1] - vy;
        const wx = x - vx;
        const wy = y - vy;
        const t = clamp01((wx * ex + wy * ey) / (ex * ex + ey * ey || 1));
        best = Math.min(best, (wx - ex * t) ** 2 + (wy - ey * t) ** 2);
        const above = y >= vy;
        const below = y < points[j][1];
        const left = ex * wy > ey * wx;
        if ((above && below && left) || (!above && !below && !left)) sign = -sign;
      }
      return sign * Math.sqrt(best);
    },
    box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
  };
}

/** Points along an elliptic arc, angles in degrees (0 = right, 90 = down). */
export function arc(cx: number, cy: number, rx: number, ry: number, from: number, to: number, steps = 24): [number, number][] {
  return Array.from({ length: steps + 1 }, (_, i) => {
    const angle = ((from + ((to - from) * i) / steps) * Math.PI) / 180;
    return [cx + rx * Math.cos(angle), cy + ry * Math.sin(angle)] as [number, number];
  });
}

export function union(...shapes: Shape[]): Shape {
  return {
    distance: (x, y) => {
      let best = Infinity;
      for (const shape of shapes) best = Math.min(best, shape.distance(x, y));
      return best;
    },
    box: [
      Math.min(...shapes.map((s) => s.box[0])),
      Math.min(...shapes.map((s) => s.box[1])),
      Math.max(...shapes.map((s) => s.box[2])),
      Math.max(...shapes.map((s) => s.box[3])),
    ],
  };
}

/** `shape` where `cut` is not. */
export function subtract(shape: Shape, cut: Shape): Shape {
  return { distance: (x, y) => Math.max(shape.distance(x, y), -cut.distance(x, y)), box: shape.box };
}

export function intersect(shape: Shape, other: Shape): Shape {
  return { distance: (x, y) => Math.max(shape.distance(x, y), other.distance(x, y)), box: shape.box };
}

// --- Canvas ------------------------------------------------------------------------------------------------------

export class Canvas {
  private readonly pixels: Float32Array;

  constructor(
    readonly width: number,
    readonly height: number,
    background?: Rgb,
  ) {
    this.pixels = new Float32Array(width * height * 4);
    if (background) this.fill(() => background);
  }

  /** Paints every pixel opaque with `colourAt(x, y)`. */
  fill(colourAt: (x: number, y: number) => Rgb): void {
    for (let y = 0; y < this.height; y += 1) {
      for (let x = 0; x < this.width; x += 1) {
        const colour = colourAt(x + 0.5, y + 0.5);
        const at = (y * this.width + x) * 4;
        this.pixels[at] = colour[0];
        this.pixels[at + 1] = colour[1];
        this.pixels[at + 2] = colour[2];
        this.pixels[at + 3] = 1;
      }
    }
  }

  /** A linear gradient through `stops` along `angle` degrees (0: left to right, 90: top to bottom). */
  gradient(stops: readonly Rgb[], angle: number): void {
    const cos = Math.cos((angle * Math.PI) / 180);
    const sin = Math.sin((angle * Math.PI) / 180);
    const half = (Math.abs(this.width * cos) + Math.abs(this.height * sin)) / 2;
    const last = stops.length - 1;
    // Inlined (no colour arrays per pixel): the covers' backgrounds are most of their pixels.
    for (let y = 0; y < this.height; y += 1) {
      for (let x = 0; x < this.width; x += 1) {
        const t = clamp01(((x + 0.5 - this.width / 2) * cos + (y + 0.5 - this.height / 2) * sin) / (2 * half) + 0.5) * last;
        const index = Math.min(last - 1, Math.floor(t));
        const within = t - index;
        const a = stops[index];
        const b = stops[index + 1];
        const at = (y * this.width + x) * 4;
        this.pixels[at] = a[0] + (b[0] - a[0]) * within;
        this.pixels[at + 1] = a[1] + (b[1] - a[1]) * within;
        this.pixels[at + 2] = a[2] + (b[2] - a[2]) * within;
        this.pixels[at + 3] = 1;
      }
    }
  }

  /**
   * Paints `shape` in `colour` (or a colour per point) at `opacity`; `feather` widens the edge (1: a crisp anti-aliased edge, more: a soft
   * glow or shadow).
   */
  draw(shape: Shape, colour: Rgb | ((x: number, y: number) => Rgb), opacity = 1, feather = 1): void {
    const [bx0, by0, bx1, by1] = shape.box;
    const x0 = Math.max(0, Math.floor(bx0 - feather - 1));
    const y0 = Math.max(0, Math.floor(by0 - feather - 1));
    const x1 = Math.min(this.width, Math.ceil(bx1 + feather + 1));
    const y1 = Math.min(this.height, Math.ceil(by1 + feather + 1));
    for (let y = y0; y < y1; y += 1) {
      for (let x = x0; x < x1; x += 1) {
        const coverage = clamp01(0.5 - shape.distance(x + 0.5, y + 0.5) / feather) * opacity;
        if (coverage <= 0) continue;
        const at = (y * this.width + x) * 4;
        const paint = typeof colour === 'function' ? colour(x + 0.5, y + 0.5) : colour;
        const below = this.pixels[at + 3] * (1 - coverage);
        const alpha = coverage + below;
        for (let c = 0; c < 3; c += 1) this.pixels[at + c] = (paint[c] * coverage + this.pixels[at + c] * below) / alpha;
        this.pixels[at + 3] = alpha;
      }
    }
  }

  /** The image as a PNG: RGB when `alpha` is false (every pixel opaque), RGBA otherwise. */
  png(alpha = false): Buffer {
    const channels = alpha ? 4 : 3;
    const stride = this.width * channels;
    const raw = Buffer.alloc((stride + 1) * this.height);
    let previous = Buffer.alloc(stride);
    for (let y = 0; y < this.height; y += 1) {
      const row = Buffer.alloc(stride);
      for (let x = 0; x < this.width; x += 1) {
        const at = (y * this.width + x) * 4;
        for (let c = 0; c < channels; c += 1) row[x * channels + c] = Math.round(c === 3 ? this.pixels[at + 3] * 255 : this.pixels[at + c]);
      }
      // Paeth filtering: gradients and flat areas then deflate to a few kilobytes.
      const out = raw.subarray(y * (stride + 1), (y + 1) * (stride + 1));
      out[0] = 4;
      for (let i = 0; i < stride; i += 1) {
        const a = i >= channels ? row[i - channels] : 0;
        const b = previous[i];
        const c = i >= channels ? previous[i - channels] : 0;
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        const predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
        out[i + 1] = (row[i] - predictor) & 0xff;
      }
      previous = row;
    }
    return encodePng(this.width, this.height, alpha ? 6 : 2, deflateSync(raw));
  }
}

// --- PNG ---------------------------------------------------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG file from its already filtered and deflated rows (8 bits per channel). */
export function encodePng(width: number, height: number, colourType: 2 | 6, deflated: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, colourType, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', header), chunk('IDAT', deflated), chunk('IEND', Buffer.alloc(0))]);
}
