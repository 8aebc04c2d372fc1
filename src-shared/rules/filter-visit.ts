import type { FilterNode } from './filter-language';

/** A comparison of the filter language: `field = v`, `field != v`, `field in (...)`, `field not in (...)`. */
export type FilterCondition = Extract<FilterNode, { kind: 'compare' | 'in' }>;

/**
 * What a filter becomes, as every reader of the filter language reads it (the SQL compiler, the laboratory's panel
 * index and tag queries, the push security clause): NOT is pushed down to the comparisons (De Morgan: not (a and b)
 * is not a or not b), so each comparison is met knowing whether it is negated; a chain of one operator (a or b or c,
 * a deep left spine in the tree) is met as one list, walked without recursion along it.
 */
export interface FilterVisitor<T> {
  condition(node: FilterCondition, negated: boolean): T;
  /**
   * The operands of a chain, left to right, each read as it is taken (a reader that folds them holds two at a time);
   * `conjunction`: they all hold (and), otherwise one of them (or).
   */
  combine(operands: Iterable<T>, conjunction: boolean): T;
}

/** Reads `node` with `visitor`; recursion only follows nesting (parentheses and `not`), bounded by FILTER_MAX_DEPTH. */
export function visitFilter<T>(node: FilterNode, visitor: FilterVisitor<T>, negated = false): T {
  if (node.kind === 'not') return visitFilter(node.operand, visitor, !negated);
  if (node.kind === 'compare' || node.kind === 'in') return visitor.condition(node, negated);
  const chain = chainOperands(node);
  function* operands() {
    for (const operand of chain) yield visitFilter(operand, visitor, negated);
  }
  return visitor.combine(operands(), (node.kind === 'and') !== negated);
}

/** Whether a comparison, under `negated`, keeps the rows whose field does NOT hold its values (`!=`, `not in`). */
export function excludes(node: FilterCondition, negated: boolean): boolean {
  return node.kind === 'compare' ? (node.operator === '=') === negated : node.negated !== negated;
}

/** The operands of a chain of one operator (a or b or c), left to right, without recursion on the chain. */
function chainOperands(node: Extract<FilterNode, { kind: 'and' | 'or' }>): FilterNode[] {
  const operands: FilterNode[] = [];
  let current: FilterNode = node;
  while (current.kind === node.kind) {
    const chain = current as Extract<FilterNode, { kind: 'and' | 'or' }>;
    operands.push(chain.right);
    current = chain.left;
  }
  operands.push(current);
  return operands.reverse();
}
