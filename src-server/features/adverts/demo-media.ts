import {
  Canvas,
  arc,
  circle,
  hex,
  intersect,
  mix,
  polygon,
  rect,
  ring,
  stroke,
  subtract,
  union,
  type Rgb,
  type Shape,
} from '../../storage/demo-images';

/**
 * The pictures of the demo adverts and articles (`--demo`): flat health illustrations drawn at seed time, so the
 * lists' previews show a living back-office rather than placeholders. Everything here is a pure function of its
 * arguments: the same bytes at every seeding.
 */

export type Theme =
  | 'heart'
  | 'play'
  | 'vaccine'
  | 'drop'
  | 'leaf'
  | 'bolt'
  | 'calculator'
  | 'search'
  | 'calendar'
  | 'pills'
  | 'bandage'
  | 'gauge'
  | 'sun'
  | 'document'
  | 'lungs'
  | 'cross';

export interface Palette {
  /** Gradient of the cover, light to deep. */
  from: string;
  to: string;
  /** Darker tone drawn on the white icon. */
  accent: string;
}

const WHITE: Rgb = [255, 255, 255];
type Point = [number, number];

/** What an icon draws with: its centre (cx, cy) and scale s, a point relative to them, and its two colours. */
interface IconPen {
  cx: number;
  cy: number;
  s: number;
  at: (x: number, y: number) => Point;
  white: (shape: Shape, opacity?: number) => void;
  detail: (shape: Shape, opacity?: number) => void;
}

/** Each theme's icon, about 2·s wide around its centre: white shapes with accent details. */
const ICON_DRAWERS: Record<Theme, (pen: IconPen) => void> = {
  heart: ({ cx, cy, s, at, white, detail }) => {
    const heart = union(
      circle(cx - 0.42 * s, cy - 0.22 * s, 0.5 * s),
      circle(cx + 0.42 * s, cy - 0.22 * s, 0.5 * s),
      polygon([at(-0.88, -0.05), at(0.88, -0.05), at(0, 0.85)]),
    );
    white(heart);
    detail(stroke([at(-1.05, 0.02), at(-0.45, 0.02), at(-0.28, -0.3), at(-0.05, 0.38), at(0.15, -0.12), at(0.28, 0.02), at(1.05, 0.02)], 0.09 * s));
  },
  play: ({ cx, cy, s, at, white, detail }) => {
    white(circle(cx, cy, 0.9 * s));
    detail(polygon([at(-0.25, -0.42), at(0.5, 0), at(-0.25, 0.42)]));
  },
  vaccine: ({ cx, cy, s, white, detail }) => {
    const angle = -Math.PI / 4;
    const along = (d: number): Point => [cx + d * s * Math.cos(angle), cy + d * s * Math.sin(angle)];
    white(rect(...along(0), 0.62 * s, 0.22 * s, 0.06 * s, angle));
    detail(rect(...along(0.12), 0.4 * s, 0.13 * s, 0.03 * s, angle));
    white(stroke([along(0.6), along(1.05)], 0.09 * s));
    white(rect(...along(-0.72), 0.06 * s, 0.3 * s, 0.03 * s, angle));
    white(stroke([along(-0.62), along(-1.0)], 0.1 * s));
  },
  drop: ({ cx, cy, s, at, white, detail }) => {
    white(union(circle(cx, cy + 0.25 * s, 0.62 * s), polygon([at(-0.56, 0.0), at(0, -0.95), at(0.56, 0.0)])));
    detail(stroke(arc(cx, cy + 0.25 * s, 0.38 * s, 0.38 * s, 20, 110, 12), 0.1 * s));
  },
  leaf: ({ cx, cy, s, at, white, detail }) => {
    const leaf = intersect(circle(cx - 0.45 * s, cy + 0.45 * s, 1.05 * s), circle(cx + 0.45 * s, cy - 0.45 * s, 1.05 * s));
    white(leaf);
    // The lens runs from its tip (top left) to the stalk (bottom right): a midrib and two pairs of veins.
    detail(stroke([at(-0.45, -0.45), at(0.45, 0.45)], 0.07 * s));
    white(stroke([at(0.5, 0.5), at(0.82, 0.82)], 0.09 * s));
    for (const [x, reach] of [
      [0.02, 0.3],
      [0.28, 0.22],
    ] as const) {
      detail(stroke([at(x - reach * 0.45, x - reach * 1.2), at(x, x), at(x - reach * 1.2, x - reach * 0.45)], 0.06 * s));
    }
  },
  bolt: ({ cx, cy, s, at, white }) => {
    white(ring(cx, cy, 0.82 * s, 0.12 * s));
    white(polygon([at(0.12, -0.7), at(-0.38, 0.1), at(-0.02, 0.1), at(-0.14, 0.7), at(0.38, -0.12), at(0.02, -0.12)]));
  },
  calculator: ({ cx, cy, s, white, detail }) => {
    white(rect(cx, cy, 0.62 * s, 0.85 * s, 0.12 * s));
    detail(rect(cx, cy - 0.5 * s, 0.44 * s, 0.16 * s, 0.04 * s));
    for (let row = 0; row < 3; row += 1) {
      for (let col = 0; col < 3; col += 1)
        detail(rect(cx + (col - 1) * 0.3 * s, cy + (0.02 + row * 0.27) * s, 0.1 * s, 0.09 * s, 0.03 * s), row === 2 && col === 2 ? 1 : 0.55);
    }
  },
  search: ({ cx, cy, s, at, white, detail }) => {
    white(ring(cx - 0.15 * s, cy - 0.15 * s, 0.5 * s, 0.16 * s));
    white(stroke([at(0.25, 0.25), at(0.75, 0.75)], 0.22 * s));
    detail(circle(cx - 0.15 * s, cy - 0.15 * s, 0.3 * s), 0.35);
  },
  calendar: ({ cx, cy, s, at, white, detail }) => {
    white(rect(cx, cy + 0.08 * s, 0.85 * s, 0.72 * s, 0.12 * s));
    detail(rect(cx, cy - 0.44 * s, 0.85 * s, 0.2 * s, 0.06 * s));
    white(stroke([at(-0.42, -0.8), at(-0.42, -0.45)], 0.1 * s));
    white(stroke([at(0.42, -0.8), at(0.42, -0.45)], 0.1 * s));
    for (let row = 0; row < 2; row += 1) {
      for (let col = 0; col < 4; col += 1)
        detail(rect(cx + (col - 1.5) * 0.38 * s, cy + (0.05 + row * 0.35) * s, 0.11 * s, 0.1 * s, 0.03 * s), row === 1 && col === 2 ? 1 : 0.35);
    }
  },
  pills: ({ s, at, white, detail }) => {
    // Two capsules, each half white, half accent.
    const capsule = (x: number, y: number, angle: number) => {
      const [ux, uy] = [Math.cos(angle), Math.sin(angle)];
      const [mx, my] = at(x, y);
      const body = stroke(
        [
          [mx - 0.55 * s * ux, my - 0.55 * s * uy],
          [mx + 0.55 * s * ux, my + 0.55 * s * uy],
        ],
        0.5 * s,
      );
      white(body);
      detail(intersect(body, { distance: (px, py) => -((px - mx) * ux + (py - my) * uy), box: body.box }));
    };
    capsule(-0.3, -0.32, -Math.PI / 5);
    capsule(0.32, 0.45, Math.PI / 7);
  },
  bandage: ({ cx, cy, s, white, detail }) => {
    const angle = -Math.PI / 4;
    white(rect(cx, cy, 1.0 * s, 0.34 * s, 0.3 * s, angle));
    detail(rect(cx, cy, 0.3 * s, 0.26 * s, 0.06 * s, angle), 0.45);
    for (const [x, y] of [
      [-0.07, -0.07],
      [0.07, 0.07],
      [0.07, -0.07],
      [-0.07, 0.07],
    ] as const)
      detail(circle(cx + x * s, cy + y * s, 0.035 * s));
  },
  gauge: ({ cx, cy, s, at, white, detail }) => {
    white(circle(cx, cy, 0.9 * s));
    detail(stroke(arc(cx, cy, 0.62 * s, 0.62 * s, 150, 390, 30), 0.12 * s), 0.35);
    detail(stroke(arc(cx, cy, 0.62 * s, 0.62 * s, 150, 300, 20), 0.12 * s));
    detail(stroke([at(0, 0), at(0.36, -0.32)], 0.09 * s));
    detail(circle(cx, cy, 0.1 * s));
  },
  sun: ({ cx, cy, s, white, detail }) => {
    white(circle(cx, cy, 0.45 * s));
    for (let ray = 0; ray < 8; ray += 1) {
      const angle = (ray * Math.PI) / 4;
      white(
        stroke(
          [
            [cx + Math.cos(angle) * 0.65 * s, cy + Math.sin(angle) * 0.65 * s],
            [cx + Math.cos(angle) * 0.92 * s, cy + Math.sin(angle) * 0.92 * s],
          ],
          0.12 * s,
        ),
      );
    }
    detail(circle(cx, cy, 0.28 * s), 0.35);
  },
  document: ({ cx, cy, s, at, white, detail }) => {
    white(subtract(rect(cx, cy, 0.65 * s, 0.85 * s, 0.08 * s), polygon([at(0.3, -0.95), at(0.75, -0.95), at(0.75, -0.5)])));
    detail(polygon([at(0.3, -0.85), at(0.3, -0.5), at(0.65, -0.5)]), 0.5);
    for (let line = 0; line < 4; line += 1)
      detail(stroke([at(-0.4, -0.3 + line * 0.26), at(line === 3 ? 0.1 : 0.4, -0.3 + line * 0.26)], 0.08 * s), 0.7);
  },
  lungs: ({ cx, cy, s, at, white, detail }) => {
    white(stroke([at(0, -0.85), at(0, -0.1)], 0.14 * s));
    white(stroke([at(0, -0.15), at(-0.25, 0.05)], 0.1 * s));
    white(stroke([at(0, -0.15), at(0.25, 0.05)], 0.1 * s));
    white(
      union(
        rect(cx - 0.5 * s, cy + 0.15 * s, 0.3 * s, 0.62 * s, 0.3 * s, 0.12),
        rect(cx + 0.5 * s, cy + 0.15 * s, 0.3 * s, 0.62 * s, 0.3 * s, -0.12),
      ),
    );
    detail(stroke([at(-0.28, 0.05), at(-0.5, 0.3)], 0.06 * s), 0.6);
    detail(stroke([at(0.28, 0.05), at(0.5, 0.3)], 0.06 * s), 0.6);
  },
  cross: ({ cx, cy, s, white, detail }) => {
    white(union(rect(cx, cy, 0.3 * s, 0.85 * s, 0.08 * s), rect(cx, cy, 0.85 * s, 0.3 * s, 0.08 * s)));
    detail(circle(cx, cy, 0.16 * s), 0.5);
  },
};

/** The icon of `theme`, centred on (cx, cy), about 2·s wide: white shapes with `accent` details. */
function drawIcon(canvas: Canvas, theme: Theme, cx: number, cy: number, s: number, accent: Rgb): void {
  const white = (shape: Shape, opacity = 1) => canvas.draw(shape, WHITE, opacity);
  const detail = (shape: Shape, opacity = 1) => canvas.draw(shape, accent, opacity);
  const at = (x: number, y: number): Point => [cx + x * s, cy + y * s];
  ICON_DRAWERS[theme]({ cx, cy, s, at, white, detail });
}

/** Small decorations scattered from a seed: plus signs and dots, the same for the same seed. */
function confetti(canvas: Canvas, seed: number, avoid: { x: number; y: number; r: number }, count: number, size: number): void {
  let state = seed * 2654435761 + 1;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  for (let placed = 0, tries = 0; placed < count && tries < count * 20; tries += 1) {
    const x = next() * canvas.width;
    const y = next() * canvas.height;
    const kind = next();
    const scale = size * (0.6 + next() * 0.8);
    if (Math.hypot(x - avoid.x, y - avoid.y) < avoid.r + scale * 2) continue;
    placed += 1;
    if (kind < 0.45) canvas.draw(union(rect(x, y, scale * 0.25, scale, scale * 0.15), rect(x, y, scale, scale * 0.25, scale * 0.15)), WHITE, 0.3);
    else if (kind < 0.8) canvas.draw(circle(x, y, scale * 0.4), WHITE, 0.25);
    else canvas.draw(ring(x, y, scale * 0.55, scale * 0.18), WHITE, 0.3);
  }
}

/** A cover (16:9): gradient, soft circles, the theme's icon on a light disc, scattered decorations. */
export function demoCover(theme: Theme, palette: Palette, seed: number, width = 640, height = 360): Buffer {
  const canvas = new Canvas(width, height);
  const from = hex(palette.from);
  const to = hex(palette.to);
  canvas.gradient([mix(from, WHITE, 0.12), from, to], 35 + (seed % 4) * 10);
  // Large translucent circles give depth without detail.
  canvas.draw(circle(width * 0.05, height * 1.02, height * 0.55), WHITE, 0.1);
  canvas.draw(circle(width * 0.98, height * 0.02, height * 0.42), WHITE, 0.08);
  const side = seed % 2 === 0 ? 0.66 : 0.34;
  const icon = { x: width * side, y: height * 0.52, r: height * 0.34 };
  confetti(canvas, seed, icon, 9, height * 0.035);
  // A soft shadow, the disc, then the icon.
  canvas.draw(circle(icon.x + 6, icon.y + 14, icon.r), hex(palette.accent), 0.35, 28);
  canvas.draw(circle(icon.x, icon.y, icon.r), WHITE, 0.22);
  canvas.draw(ring(icon.x, icon.y, icon.r * 1.18, 3), WHITE, 0.35);
  drawIcon(canvas, theme, icon.x, icon.y, icon.r * 0.62, hex(palette.accent));
  // A headline band on the other side, like the title block of a campaign visual.
  const bandX = seed % 2 === 0 ? width * 0.08 : width * 0.6;
  canvas.draw(rect(bandX + width * 0.13, height * 0.4, width * 0.13, height * 0.035, height * 0.035), WHITE, 0.9);
  canvas.draw(rect(bandX + width * 0.1, height * 0.5, width * 0.1, height * 0.035, height * 0.035), WHITE, 0.6);
  canvas.draw(rect(bandX + width * 0.06, height * 0.64, width * 0.06, height * 0.05, height * 0.05), hex(palette.accent), 0.85);
  return canvas.png();
}

/** A story screen's illustration: the icon on a translucent disc, transparent around, for any background colour. */
export function demoIllustration(theme: Theme, accent: string, size = 480): Buffer {
  const canvas = new Canvas(size, size);
  const centre = size / 2;
  canvas.draw(circle(centre, centre, size * 0.44), WHITE, 0.18);
  canvas.draw(circle(centre, centre, size * 0.34), WHITE, 0.18);
  drawIcon(canvas, theme, centre, centre, size * 0.24, hex(accent));
  return canvas.png(true);
}

/** Strokes of the monogram letters, in a box one unit high (x from 0 to about 0.8). */
const LETTERS: Record<string, Point[][]> = {
  A: [
    [
      [0, 1],
      [0.39, 0],
      [0.78, 1],
    ],
    [
      [0.16, 0.62],
      [0.62, 0.62],
    ],
  ],
  C: [arc(0.45, 0.5, 0.45, 0.5, 45, 315, 28)],
  D: [
    [
      [0.02, 0],
      [0.02, 1],
    ],
    [[0.02, 0], [0.28, 0], ...arc(0.28, 0.5, 0.46, 0.5, -90, 90, 20), [0.02, 1]],
  ],
  M: [
    [
      [0, 1],
      [0, 0],
      [0.42, 0.62],
      [0.84, 0],
      [0.84, 1],
    ],
  ],
  N: [
    [
      [0, 1],
      [0, 0],
      [0.7, 1],
      [0.7, 0],
    ],
  ],
  P: [[[0.02, 1], [0.02, 0], [0.38, 0], ...arc(0.38, 0.27, 0.3, 0.27, -90, 90, 16), [0.02, 0.54]]],
  R: [
    [[0.02, 1], [0.02, 0], [0.38, 0], ...arc(0.38, 0.27, 0.3, 0.27, -90, 90, 16), [0.02, 0.54]],
    [
      [0.36, 0.54],
      [0.72, 1],
    ],
  ],
};

/** A logo: a disc in the brand's gradient with its initial in white (transparent around, the app crops it round). */
export function demoLogo(letter: string, palette: Palette, size = 192): Buffer {
  const canvas = new Canvas(size, size);
  const centre = size / 2;
  const from = hex(palette.from);
  const to = hex(palette.to);
  // The disc in the brand's gradient: lighter at the top left, deeper at the bottom right.
  canvas.draw(circle(centre, centre, size * 0.48), (x, y) => mix(from, to, Math.min(1, Math.max(0, (x + y) / (2 * size)))));
  const strokes = LETTERS[letter] ?? LETTERS.A;
  const height = size * 0.44;
  const widest = Math.max(...strokes.flat().map((point) => point[0]));
  const left = centre - (widest * height) / 2;
  const top = centre - height / 2;
  const letterShape = union(
    ...strokes.map((points) =>
      stroke(
        points.map(([x, y]) => [left + x * height, top + y * height] as Point),
        size * 0.085,
      ),
    ),
  );
  canvas.draw(letterShape, hex(palette.accent), 0.35, 6);
  canvas.draw(letterShape, WHITE);
  return canvas.png(true);
}
