/**
 * Pure rules of the group screens and test accounts (audiences-projects-tools.md §2, §4, §5, §9). Free of zod:
 * screens import it.
 */

/** Group list page size (spec §9), and the export's one call of 10,000 (spec §7). */
export const GROUP_PAGE_SIZE = 25;
export const GROUP_EXPORT_LIMIT = 10_000;
/** A group editor shows at most 40 members (spec §9 "Group display cap"). */
export const GROUP_DISPLAY_CAP = 40;
/** Node search in the group editor: 25 a search, documents 100 (spec §9), debounced 320 ms. */
export const GROUP_NODE_SEARCH_LIMIT = 25;
export const GROUP_DOCUMENT_SEARCH_LIMIT = 100;
export const NODE_SEARCH_DEBOUNCE_MS = 320;
/** Test accounts: the search starts at 3 characters, 200 ms after the last key (spec §5, §9). */
export const ACCOUNT_SEARCH_MIN_LENGTH = 3;
export const ACCOUNT_SEARCH_DEBOUNCE_MS = 200;

/** Spec §5: the Create button of the new-group modal is disabled while the name is empty. */
export function canCreateGroup(name: string): boolean {
  return name.trim().length > 0;
}

/** Spec §4: on the group page, search results come Feed first, then Document, then App, then the others. */
const GROUP_PAGE_ORDER: Record<string, number> = { Feed: 0, Document: 1, App: 2 };
export function orderForGroupPage<T extends { label: string }>(nodes: readonly T[]): T[] {
  return nodes
    .map((node, index) => ({ node, index }))
    .sort((a, b) => (GROUP_PAGE_ORDER[a.node.label] ?? 3) - (GROUP_PAGE_ORDER[b.node.label] ?? 3) || a.index - b.index)
    .map(({ node }) => node);
}

/** How many results a node search on the group page asks for: 100 for documents, 25 otherwise (spec §9). */
export function groupSearchLimit(label: string | undefined): number {
  return label === 'Document' ? GROUP_DOCUMENT_SEARCH_LIMIT : GROUP_NODE_SEARCH_LIMIT;
}

/** Spec §2: the document search in a group shows every found document pre-selected. */
export function preselectedResults<T extends { id: number; label: string }>(results: readonly T[]): Set<number> {
  return new Set(results.filter((node) => node.label === 'Document').map((node) => node.id));
}

/**
 * What the group editor shows of its members: the first 40, and whether the display is limited (spec §2: a group
 * of exactly 40 items shows 'Affichage limité à 40 items'; a longer one is cut to 40 and says the same).
 */
export function groupDisplay<T>(members: readonly T[]): { shown: T[]; limited: boolean } {
  const shown = members.slice(0, GROUP_DISPLAY_CAP);
  return { shown, limited: shown.length === GROUP_DISPLAY_CAP };
}

/**
 * Adds nodes to a group's members: a node already there (same id and label) is not added twice (spec §4); the
 * order of the members stays, new ones come last.
 */
export function addMembers<T extends { node: { id: number; label: string } }>(members: readonly T[], added: readonly T[]): T[] {
  const key = (member: T) => `${member.node.label}:${member.node.id}`;
  const seen = new Set(members.map(key));
  const result = [...members];
  for (const member of added) {
    if (seen.has(key(member))) continue;
    seen.add(key(member));
    result.push(member);
  }
  return result;
}

/** Spec §5: the test-account search runs for 3 or more characters (spaces around do not count). */
export function shouldSearchAccounts(term: string): boolean {
  return term.trim().length >= ACCOUNT_SEARCH_MIN_LENGTH;
}

/** Where a group's row links to (spec §2): its editor, under its own label. */
export function groupEditorPath(group: { id: number; label: string }): string {
  return `/group/${group.label}/${group.id}`;
}

/** The columns of the group CSV export. */
export const GROUP_EXPORT_COLUMNS = [
  { key: 'id', header: 'id' },
  { key: 'name', header: 'name' },
  { key: 'label', header: 'label' },
  { key: 'labels', header: 'labels' },
  { key: 'audiencesCount', header: 'audiencesCount' },
] as const;
