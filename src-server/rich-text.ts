/**
 * Rich texts are Lexical editor states (JSON): a project's briefing, a proof's text items. What is stored, and so
 * what any screen or PDF renders, keeps only the nodes the editor that wrote it makes, with their known fields;
 * links only to http(s) or mailto. Anything else (a script, an event handler, an unknown node, a javascript: link,
 * url() in a style) is dropped, its text children kept.
 */
type Json = Record<string, unknown>;

/** What one editor makes. */
export interface RichTextProfile {
  /** Block nodes kept besides root, paragraph and links. */
  blocks: readonly ('heading' | 'quote' | 'list' | 'listitem')[];
  /** Characters a text node keeps. */
  maxText: number;
  /** Whether texts keep a style of font-size, color and background-color with plain values (else none). */
  styles: boolean;
  /** Whether the root holds paragraphs only, at least one (loose texts go into a paragraph of their own). */
  paragraphRoot: boolean;
}

const SAFE_URL = /^(https?:\/\/|mailto:)[^\s"'<>]*$/i;
const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const MAX_DEPTH = 20;
const FORMATS = new Set(['', 'left', 'start', 'center', 'right', 'end', 'justify']);
const STYLE_PROPERTIES = new Set(['font-size', 'color', 'background-color']);
const FONT_SIZE = /^\d{1,3}(\.\d{1,2})?px$/;
const COLOUR = /^(#[0-9a-f]{3,8}|rgba?\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*(,\s*(0|1|0?\.\d+)\s*)?\)|[a-z]{3,20})$/i;

const num = (value: unknown, fallback = 0) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
const str = (value: unknown, fallback = '') => (typeof value === 'string' ? value : fallback);

/** A text node's style with only font-size, color and background-color of plain values ('' when nothing is left). */
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

class Sanitizer {
  private readonly blocks: Set<string>;
  constructor(private readonly profile: RichTextProfile) {
    this.blocks = new Set(['root', 'paragraph', 'link', 'autolink', ...profile.blocks]);
  }

  private style(value: unknown): string {
    return this.profile.styles ? sanitizeTextStyle(str(value).slice(0, 500)) : '';
  }

  children(children: unknown, depth: number): Json[] {
    if (!Array.isArray(children) || depth > MAX_DEPTH) return [];
    return children.flatMap((child) => this.node(child, depth + 1));
  }

  node(node: unknown, depth: number): Json[] {
    if (typeof node !== 'object' || node === null) return [];
    const source = node as Json;
    const type = str(source.type);
    if (type === 'text') {
      const text = str(source.text).slice(0, this.profile.maxText);
      return [{ type: 'text', version: 1, text, format: num(source.format) & 0xff, detail: 0, mode: 'normal', style: this.style(source.style) }];
    }
    if (type === 'linebreak') return [{ type: 'linebreak', version: 1 }];
    if (!this.blocks.has(type)) return this.children(source.children, depth);
    const block: Json = {
      type,
      version: 1,
      children: this.children(source.children, depth),
      direction: source.direction === 'rtl' ? 'rtl' : source.direction === null ? null : 'ltr',
      format: FORMATS.has(str(source.format)) ? str(source.format) : '',
      indent: Math.max(0, Math.min(10, num(source.indent))),
    };
    if (type === 'heading') block.tag = HEADING_TAGS.has(str(source.tag)) ? source.tag : 'h2';
    if (type === 'list') {
      block.listType = source.listType === 'number' ? 'number' : source.listType === 'check' ? 'check' : 'bullet';
      block.tag = block.listType === 'number' ? 'ol' : 'ul';
      block.start = Math.max(1, num(source.start, 1));
    }
    if (type === 'listitem') block.value = Math.max(1, num(source.value, 1));
    if (type === 'paragraph') {
      block.textFormat = num(source.textFormat) & 0xff;
      if (this.profile.styles) block.textStyle = this.style(source.textStyle);
    }
    if (type === 'link' || type === 'autolink') {
      const url = str(source.url).trim();
      if (!SAFE_URL.test(url)) return block.children as Json[];
      block.url = url;
      block.rel = 'noopener noreferrer';
      block.target = '_blank';
      block.title = str(source.title).slice(0, 500) || null;
    }
    return [block];
  }
}

const emptyParagraph = (children: Json[]): Json => ({
  type: 'paragraph',
  version: 1,
  children,
  direction: children.length ? 'ltr' : null,
  format: '',
  indent: 0,
  textFormat: 0,
  textStyle: '',
});

/** The state as stored and served: a root with only the profile's safe nodes. */
export function sanitizeRichText(state: unknown, profile: RichTextProfile): { root: Json } {
  const source = typeof state === 'object' && state !== null ? (state as Json) : {};
  const sanitizer = new Sanitizer(profile);
  const [root] = sanitizer.node({ ...(typeof source.root === 'object' && source.root ? (source.root as Json) : {}), type: 'root' }, 0);
  if (!profile.paragraphRoot) return { root };
  const children = (root.children as Json[]).filter((child) => child.type === 'paragraph');
  const loose = (root.children as Json[]).filter((child) => child.type !== 'paragraph');
  if (loose.length) children.push(emptyParagraph(loose));
  if (!children.length) children.push(emptyParagraph([]));
  return { root: { ...root, children } };
}
