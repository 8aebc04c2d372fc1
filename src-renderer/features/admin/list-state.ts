/** Spec §4: a skip of 0 replaces the list; a skip above 0 appends to it. */
export function mergePage<T extends { id: number }>(current: T[], page: T[], skip: number): T[] {
  if (skip === 0) return page;
  const seen = new Set(current.map((item) => item.id));
  return [...current, ...page.filter((item) => !seen.has(item.id))];
}

/** The roles multi-select shows how many roles are selected. */
export function rolesLabel(count: number): string {
  return count === 0 ? 'Aucun rôle' : `${count} rôle${count > 1 ? 's' : ''}`;
}
