/**
 * Briefings are Lexical editor states (JSON). What is stored, and so what any screen renders, keeps only the
 * nodes the briefing editor makes (paragraphs, headings, quotes, lists, links, text with bold / italic / underline
 * formats, line breaks) with their known fields; links only to http(s) or mailto. Anything else (a script URL,
 * an inline style, an unknown node) is dropped, its text children kept.
 */
type Json = Record<string, unknown>;

const BLOCK_TYPES = new Set(['root', 'paragraph', 'heading', 'quote', 'list', 'listitem', 'link', 'autolink']);
const SAFE_URL = /^(https?:\/\/|mailto:)/i;
const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const MAX_DEPTH = 20;

const num = (value: unknown, fallback = 0) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
const str = (value: unknown, fallback = '') => (typeof value === 'string' ? value : fallback);
const FORMATS = new Set(['', 'left', 'start', 'center', 'right', 'end', 'justify']);

function sanitizeChildren(children: unknown, depth: number): Json[] {
  if (!Array.isArray(children) || depth > MAX_DEPTH) return [];
  return children.flatMap((child) => sanitizeNode(child, depth + 1));
}

function sanitizeNode(node: unknown, depth: number): Json[] {
  if (typeof node !== 'object' || node === null) return [];
  const source = node as Json;
  const type = str(source.type);
  if (type === 'text') {
    return [
      { type: 'text', version: 1, text: str(source.text).slice(0, 100_000), format: num(source.format) & 0xff, detail: 0, mode: 'normal', style: '' },
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
  if (type === 'heading') block.tag = HEADING_TAGS.has(str(source.tag)) ? source.tag : 'h2';
  if (type === 'list') {
    block.listType = source.listType === 'number' ? 'number' : source.listType === 'check' ? 'check' : 'bullet';
    block.tag = block.listType === 'number' ? 'ol' : 'ul';
    block.start = Math.max(1, num(source.start, 1));
  }
  if (type === 'listitem') block.value = Math.max(1, num(source.value, 1));
  if (type === 'paragraph') block.textFormat = num(source.textFormat) & 0xff;
  if (type === 'link' || type === 'autolink') {
    const url = str(source.url).trim();
    if (!SAFE_URL.test(url)) return block.children as Json[];
    block.url = url;
    block.rel = 'noopener noreferrer';
    block.target = '_blank';
    block.title = str(source.title) || null;
  }
  return [block];
}

/** The state as stored and served: a root with only safe nodes (an empty root when nothing was usable). */
export function sanitizeLexicalState(state: Record<string, unknown>): Record<string, unknown> {
  const [root] = sanitizeNode({ ...(typeof state.root === 'object' && state.root ? (state.root as Json) : {}), type: 'root' }, 0);
  return { root };
}
