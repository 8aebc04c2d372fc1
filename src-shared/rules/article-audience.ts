/**
 * The article's own audience (adverts-articles.md §2.5, audiences-projects-tools.md §3): the article editor edits
 * its criteria inline, one list of nodes per label, instead of attaching a saved audience.
 */
export const ARTICLE_CRITERION_LABELS = ['Area', 'Country', 'Role', 'Profession', 'Specialty', 'Title', 'OrGroup'] as const;
export type ArticleCriterionLabel = (typeof ARTICLE_CRITERION_LABELS)[number];

/** What the editor calls each label: OrGroup is shown as 'Appetence' (spec §2.5). */
export const ARTICLE_CRITERION_TITLES: Record<ArticleCriterionLabel, string> = {
  Area: 'Area',
  Country: 'Country',
  Role: 'Role',
  Profession: 'Profession',
  Specialty: 'Specialty',
  Title: 'Title',
  OrGroup: 'Appetence',
};

/** Nodes per article audience label: a few dozen in practice, the bound keeps a request small. */
export const ARTICLE_CRITERIA_MAX_PER_LABEL = 500;

/** The node search of a criterion picker: from 2 characters, debounced, 25 results. */
export const CRITERION_SEARCH_MIN_LENGTH = 2;
export const CRITERION_SEARCH_DEBOUNCE_MS = 300;
export const CRITERION_SEARCH_LIMIT = 25;

export interface CriterionNode {
  id: number;
  label: string;
  name: string;
}

export type CriteriaByLabel = Partial<Record<ArticleCriterionLabel, number[]>>;

export const isArticleCriterionLabel = (label: string): label is ArticleCriterionLabel =>
  (ARTICLE_CRITERION_LABELS as readonly string[]).includes(label);

/** The criteria as the write call takes them: node ids per label, each list sorted and without repeats. */
export function criteriaByLabel(nodes: readonly CriterionNode[]): CriteriaByLabel {
  const byLabel: CriteriaByLabel = {};
  // Labels in the spec's order, whatever the nodes' order: two equal sets give the same object.
  for (const label of ARTICLE_CRITERION_LABELS) {
    const ids = nodes.filter((node) => node.label === label).map((node) => node.id);
    if (ids.length) byLabel[label] = [...new Set(ids)].sort((a, b) => a - b);
  }
  return byLabel;
}

/** Whether two sets of criteria select the same nodes (a save sends them only when they changed). */
export function sameCriteria(a: readonly CriterionNode[], b: readonly CriterionNode[]): boolean {
  const key = (nodes: readonly CriterionNode[]) => JSON.stringify(criteriaByLabel(nodes));
  return key(a) === key(b);
}

/** §5: an article needs at least one Area criterion ('L'Area de l'audience est requise'). */
export const hasAreaCriterion = (nodes: readonly CriterionNode[]) => nodes.some((node) => node.label === 'Area');
