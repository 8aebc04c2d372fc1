import { hasAnyRole } from '../roles';

/**
 * Comments and briefing of a project (audiences-projects-tools.md §4 "Briefing and comments", §6): only one's own
 * comments can be edited or deleted; saving is skipped when the text is unchanged.
 */

export interface AuthoredComment {
  id: number;
  /** The author's account id. */
  author: number;
  content: string;
}

/** The edit and delete menu shows only on the signed-in user's own comments (spec §6). */
export function canEditComment(comment: { author: number }, userId: number | null | undefined): boolean {
  return userId != null && comment.author === userId;
}

/**
 * The text an edit should save, or null when nothing is to be saved: the trimmed text is empty or the same
 * as the saved one (spec §4 "saving is skipped when the text is unchanged").
 */
export function commentTextToSave(saved: string, draft: string): string | null {
  const text = draft.trim();
  if (!text || text === saved.trim()) return null;
  return text;
}

/** The comment a user edits on a timeline row: their latest on that target (by id), if any. */
export function ownLatestComment<T extends AuthoredComment>(comments: readonly T[], userId: number | null | undefined): T | null {
  let latest: T | null = null;
  for (const comment of comments) if (canEditComment(comment, userId) && (!latest || comment.id > latest.id)) latest = comment;
  return latest;
}

export type CommentSave = { kind: 'none' } | { kind: 'create'; content: string } | { kind: 'update'; id: number; content: string };

/**
 * What a debounced timeline comment edit does: creates the user's comment on the target the first time,
 * updates it afterwards, and does nothing when the text is empty or unchanged.
 */
export function timelineCommentSave(own: AuthoredComment | null, draft: string): CommentSave {
  const content = commentTextToSave(own?.content ?? '', draft);
  if (content === null) return { kind: 'none' };
  return own ? { kind: 'update', id: own.id, content } : { kind: 'create', content };
}

/**
 * Who edits the briefing: every reader of the Projects menu (CSM, CSM_LEAD, SALES, ADMIN). Spec §6 lists the writes
 * blocked for SALES exhaustively and the briefing, like comments, is not among them; the server allows the same.
 */
export function canEditBriefing(roles: readonly string[]): boolean {
  return hasAnyRole(roles, ['CSM', 'CSM_LEAD', 'SALES']);
}

// ---- briefing -----------------------------------------------------------------------------------------------------

/**
 * The seven sections of the default briefing template (spec §4: client stakes, strategy, available content,
 * timings, contacts, client type, other). The spec names them without quoting a wording; these are French.
 */
export const BRIEFING_SECTIONS = ['Enjeux client', 'Stratégie', 'Contenus disponibles', 'Timings', 'Contacts', 'Type de client', 'Autre'] as const;

type LexicalNode = Record<string, unknown>;

const textNode = (text: string, format = 0): LexicalNode => ({ type: 'text', version: 1, text, format, detail: 0, mode: 'normal', style: '' });
const block = (type: string, children: LexicalNode[], extra: LexicalNode = {}): LexicalNode => ({
  type,
  version: 1,
  children,
  direction: children.length ? 'ltr' : null,
  format: '',
  indent: 0,
  ...extra,
});

/** The default briefing (a Lexical editor state): each section as a heading followed by an empty paragraph. */
export function defaultBriefingState(): { root: LexicalNode } {
  const children = BRIEFING_SECTIONS.flatMap((title) => [
    block('heading', [textNode(title)], { tag: 'h3' }),
    block('paragraph', [], { textFormat: 0, textStyle: '' }),
  ]);
  return { root: { ...block('root', children), direction: 'ltr' } };
}

/** What the briefing editor starts from: the saved briefing, or the default template when there is none. */
export function briefingStartState(briefing: { content: Record<string, unknown> } | null | undefined): Record<string, unknown> {
  const root = briefing?.content.root as LexicalNode | undefined;
  if (!root || !Array.isArray(root.children) || root.children.length === 0) return defaultBriefingState();
  return briefing!.content;
}

/** The plain text of a Lexical state, blocks on their own lines (what a reader sees, without formats). */
export function briefingPlainText(state: Record<string, unknown>): string {
  const lines: string[] = [];
  const inline = (node: LexicalNode): string => {
    if (node.type === 'text') return typeof node.text === 'string' ? node.text : '';
    if (node.type === 'linebreak') return '\n';
    return Array.isArray(node.children) ? (node.children as LexicalNode[]).map(inline).join('') : '';
  };
  const walk = (node: LexicalNode) => {
    const children = Array.isArray(node.children) ? (node.children as LexicalNode[]) : [];
    if (node.type === 'root' || node.type === 'list') children.forEach(walk);
    else lines.push(inline(node));
  };
  if (state.root && typeof state.root === 'object') walk(state.root as LexicalNode);
  return lines.join('\n');
}
