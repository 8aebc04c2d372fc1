/**
 * Pure rules of the audience editor and the group page (spec audiences §4, §5, §9): free of React and zod, so the
 * screens and the unit tests share them.
 */
import { AUDIENCE_MESSAGES } from '../messages/audiences';
import { EVENTS, ITEM_EVENTS, NODE_LABELS, type InteractionEvent, type NodeLabel } from './audiences';
import { foldForSearch } from './fold';

/** Spec §9 timings and limits of the editor. */
export const NODE_SEARCH_DEBOUNCE_MS = 320;
export const USER_SEARCH_DEBOUNCE_MS = 1000;
export const TESTER_REFRESH_MS = 900;
/** Beyond the spec: the live size waits for a pause this long after a change of criteria. */
export const LIVE_SIZE_DEBOUNCE_MS = 150;
/** Spec §5: text is bolded in results only for terms of 3 or more characters. */
export const BOLD_MIN_TERM_LENGTH = 3;
/** Spec §2 Audience list: further pages load within 100 px of the bottom. */
export const LIST_LOAD_MARGIN_PX = 100;

/** The editor's relationship, as it holds it before saving. */
export interface EditorRelationship {
  node: { id: number; label: NodeLabel; name: string };
  type: 'AND' | 'SEARCH' | 'SHOULD_TARGET';
  kind: 'required' | 'not';
  event: InteractionEvent | null;
  caping: string | null;
}

/** Groups relationships by the label of their node, in the order of NODE_LABELS (the spec's criteria order). */
export function groupByLabel<R extends { node: { label: NodeLabel } }>(relationships: readonly R[]): { label: NodeLabel; relationships: R[] }[] {
  const byLabel = Map.groupBy(relationships, (relationship) => relationship.node.label);
  return NODE_LABELS.filter((label) => byLabel.has(label)).map((label) => ({ label, relationships: byLabel.get(label)! }));
}

/** Spec §4: the events a relationship may pick, per label; null (Auto) is always offered besides. */
export function eventsFor(label: NodeLabel): readonly InteractionEvent[] {
  return (ITEM_EVENTS as Record<string, readonly InteractionEvent[]>)[label] ?? [];
}

export function isEvent(value: string): value is InteractionEvent {
  return (EVENTS as readonly string[]).includes(value);
}

/** Spec §5: a keyword is trimmed and lowercased. */
export function normaliseKeyword(text: string): string {
  return text.trim().toLowerCase();
}

/** Spec §5: the modal advises against accents and capitals; true when the raw text holds either. */
export function keywordNeedsAdvice(text: string): boolean {
  return /[A-Z]/.test(text) || /[^\u0000-\u007f]/.test(text.normalize('NFD'));
}

/** Spec §5: the node search runs only for a non-empty term. */
export function nodeSearchTerm(term: string): string | null {
  const trimmed = term.trim();
  return trimmed ? trimmed : null;
}

/** Spec §5: the audience-name search ignores terms that are empty, start with a colon, or hold , ' ( or ). */
export function isAudienceSearchTerm(term: string): boolean {
  const trimmed = term.trim();
  return trimmed.length > 0 && !trimmed.startsWith(':') && !/[,'()]/.test(trimmed);
}

/** Spec §5 search filters, also applied by the server: a check of one result. */
export function passesSearchFilters(
  node: { label: NodeLabel; name: string },
  options: { isGroupPage: boolean; companyDomains: readonly string[] },
): boolean {
  if (node.label === 'Zip') return /\d{2}/.test(node.name);
  if (node.label === 'Role') return node.name !== 'ROLE_PROSPECT';
  if (node.label === 'User' && !options.isGroupPage) {
    const email = node.name.toLowerCase();
    return options.companyDomains.some((domain) => email.endsWith(`@${domain.toLowerCase()}`));
  }
  return true;
}

/** Spec §4: Feed, Document, App, then the others, each kept in its found order. */
export function groupPageOrder<N extends { label: NodeLabel }>(nodes: readonly N[]): N[] {
  const rank = (label: NodeLabel) => (({ Feed: 0, Document: 1, App: 2 }) as Partial<Record<NodeLabel, number>>)[label] ?? 3;
  return nodes
    .map((node, index) => ({ node, index }))
    .sort((a, b) => rank(a.node.label) - rank(b.node.label) || a.index - b.index)
    .map(({ node }) => node);
}

/** Spec §4: the same node (same id and label) is not added twice. */
export function hasNode(relationships: readonly { node: { id: number; label: NodeLabel } }[], node: { id: number; label: NodeLabel }): boolean {
  return relationships.some((relationship) => relationship.node.id === node.id && relationship.node.label === node.label);
}

/**
 * What 'Sauvegarder' refuses at the field (docs/audiences.md): an audience with no type (spec §2: the editor asks for
 * one), and a saved audience whose name was emptied (a new one is named 'Audience {id}' by the server).
 */
export function audienceFieldErrors(audience: { id: number | null; name: string; type: string | null }): { name?: string; type?: string } {
  return {
    ...(audience.id !== null && !audience.name.trim() ? { name: AUDIENCE_MESSAGES.fieldRequired(AUDIENCE_MESSAGES.audienceNameLabel) } : {}),
    ...(!audience.type ? { type: AUDIENCE_MESSAGES.fieldRequired(AUDIENCE_MESSAGES.audienceTypeLabel) } : {}),
  };
}

/** Spec §4: saving needs an area and at least one criterion other than the area. */
export function canSave(audience: { area: string | null | undefined; relationships: readonly { node: { label: NodeLabel } }[] }): boolean {
  return Boolean(audience.area) && audience.relationships.some((relationship) => relationship.node.label !== 'Area');
}

/** Spec §2: the warning shown when no relationship targets experts (a required Role ROLE_EXPERT). */
export function targetsExperts(relationships: readonly { node: { label: NodeLabel; name: string }; kind: string }[]): boolean {
  return relationships.some(
    (relationship) => relationship.node.label === 'Role' && relationship.node.name === 'ROLE_EXPERT' && relationship.kind !== 'not',
  );
}

/** Spec §4: keywords are refused on a timeline audience. */
export function keywordAllowed(type: string | null | undefined): boolean {
  return type !== 'timeline';
}

export interface TextPart {
  text: string;
  bold: boolean;
}

/**
 * Spec §5: the parts of a result's text, the occurrences of the term bolded, only for terms of 3 or more
 * characters; case and accents are ignored when finding them.
 */
export function boldParts(text: string, term: string): TextPart[] {
  const needle = foldForSearch(term.trim());
  if (needle.length < BOLD_MIN_TERM_LENGTH) return [{ text, bold: false }];
  const { folded, startOf, endOf } = foldWithOffsets(text);
  const parts: TextPart[] = [];
  let from = 0;
  for (let at = folded.indexOf(needle); at !== -1; at = folded.indexOf(needle, at + 1)) {
    const start = startOf[at];
    if (start < from) continue;
    const end = endOf[at + needle.length - 1];
    if (start > from) parts.push({ text: text.slice(from, start), bold: false });
    parts.push({ text: text.slice(start, end), bold: true });
    from = end;
  }
  if (from < text.length) parts.push({ text: text.slice(from), bold: false });
  return parts.length ? parts : [{ text, bold: false }];
}

/**
 * The text folded a character at a time, with where each folded character comes from in the text: a ligature
 * gives two ('œ' → 'oe'), a lone combining mark none (it stays with the letter before it).
 */
function foldWithOffsets(text: string): { folded: string; startOf: number[]; endOf: number[] } {
  let folded = '';
  const startOf: number[] = [];
  const endOf: number[] = [];
  let index = 0;
  for (const char of text) {
    const piece = foldForSearch(char);
    const end = index + char.length;
    // A combining mark alone folds to nothing: it belongs to the letter before it.
    for (let k = endOf.length - 1; !piece && k >= 0 && startOf[k] === startOf.at(-1); k -= 1) endOf[k] = end;
    folded += piece;
    for (let k = 0; k < piece.length; k += 1) {
      startOf.push(index);
      endOf.push(end);
    }
    index = end;
  }
  return { folded, startOf, endOf };
}

/** Spec §5: the file must have a column named "email" (any case, spaces trimmed). */
export function emailColumn(columns: readonly string[]): string | null {
  return columns.find((column) => column.trim().toLowerCase() === 'email') ?? null;
}
