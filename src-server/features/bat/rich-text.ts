/**
 * The text items of a proof are Lexical editor states (JSON). What is stored, and so what the editor and the PDF
 * render, keeps only the nodes the BAT toolbar makes (§2.6: bold, italic, underline, strike, size, align, link,
 * colour, background): paragraphs, links to http(s) or mailto, text with its format bits and a style limited to
 * font-size, color and background-color with plain values. Anything else (a script, an event handler, an unknown
 * node, a javascript: link, url() in a style) is dropped, its text children kept.
 */
type Json = Record<string, unknown>;

const BLOCK_TYPES = new Set(['root', 'paragraph', 'link', 'autolink']);
const SAFE_URL = /^(https?:\/\/|mailto:)[^\s"'<>]*$/i;
const MAX_DEPTH = 20;
const FORMATS = new Set(['', 'left', 'start', 'center', 'right', 'end', 'justify']);
const STYLE_PROPERTIES = new Set(['font-size', 'color', 'background-color']);
const FONT_SIZE = /^\d{1,3}(\.\d{1,2})?px$/;
const COLOUR = /^(#[0-9a-f]{3,8}|rgba?\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*(,\s*(0|1|0?\.\d+)\s*)?\)|[a-z]{3,20})$/i;

const num = (value: unknown, fallback = 0) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
const str = (value: unknown, fallback = '') => (typeof value === 'string' ? value : fallback);

/** A text node's style with only the toolbar's properties and plain values ('' when nothing is left). */
export function sanitizeTextStyle(style: string): string {
  const kept: string[] = [];
  for (const declaration of style.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).trim();
    if (!STYLE_PROPERTIES.has(property)) continue;
    if (property === 'font-size' ? FONT_SIZE.test(value) : COLOUR.test(value)) kept.push(`${property}: ${value}`);
  }
  return kept.join('; ') + (kept.length ? ';' : '');
}

function sanitizeChildren(children: unknown, depth: number): Json[] {
  if (!Array.isArray(children) || depth > MAX_DEPTH) return [];
  return children.flatMap((child) => sanitizeNode(child, depth + 1));
}

function sanitizeNode(node: unknown, depth: number): Json[] {
  if (typeof node !== 'object' || node === null) return [];
  const source = node as Json;
  const type = str(source.type);
  if (type === 'text') {
    const style = sanitizeTextStyle(str(source.style).slice(0, 500));
    return [
      { type: 'text', version: 1, text: str(source.text).slice(0, 20_000), format: num(source.format) & 0xff, detail: 0, mode: 'normal', style },
    ];
  }
  if (type === 'linebreak') return [{ type: 'linebreak', version: 1 }];
  if (!BLOCK_TYPES.has(type)) return sanitizeChildren(source.children, depth);
  const block: Json = {
    type,
    version: 1,
    children: sanitizeChildren(source.children, depth),
    direction: source.direction === 'rtl' ? 'rtl' : source.direction === null ? null : 'ltr',
    format: FORMATS.has(str(source.format)) ? str(source.format) : '',
    indent: Math.max(0, Math.min(10, num(source.indent))),
  };
  if (type === 'paragraph') {
    block.textFormat = num(source.textFormat) & 0xff;
    block.textStyle = sanitizeTextStyle(str(source.textStyle).slice(0, 500));
  }
  if (type === 'link' || type === 'autolink') {
    const url = str(source.url).trim();
    if (!SAFE_URL.test(url)) return block.children as Json[];
    block.url = url;
    block.rel = 'noopener noreferrer';
    block.target = '_blank';
    block.title = null;
  }
  return [block];
}

/** The text item's state as stored and served: a root with only safe nodes (an empty paragraph when nothing was usable). */
export function sanitizeBatText(state: unknown): Json {
  const source = typeof state === 'object' && state !== null ? (state as Json) : {};
  const [root] = sanitizeNode({ ...(typeof source.root === 'object' && source.root ? (source.root as Json) : {}), type: 'root' }, 0);
  const children = (root.children as Json[]).filter((child) => child.type === 'paragraph');
  // A root holds blocks only: a loose text or link goes into a paragraph of its own.
  const loose = (root.children as Json[]).filter((child) => child.type !== 'paragraph');
  if (loose.length)
    children.push({ type: 'paragraph', version: 1, children: loose, direction: 'ltr', format: '', indent: 0, textFormat: 0, textStyle: '' });
  if (!children.length)
    children.push({ type: 'paragraph', version: 1, children: [], direction: null, format: '', indent: 0, textFormat: 0, textStyle: '' });
  return { root: { ...root, children } };
}
