/** The roles multi-select shows how many roles are selected. */
export function rolesLabel(count: number): string {
  return count === 0 ? 'Aucun rôle' : `${count} rôle${count > 1 ? 's' : ''}`;
}
