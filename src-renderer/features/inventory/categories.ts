import type { Meta } from '@shared/contract';

export interface CategoryOption {
  label: 'Specialty' | 'Profession';
  id: number;
  name: string;
}

/** General medicine's specialty id (src-shared/reference.ts): first of the list (§2). */
const GENERAL_MEDICINE = 1;
/** The profession the specialties detail: left out of the list (§2). */
const DOCTOR = 'Médecin';

/** §2 'Spécialité' filter: the specialties, general medicine first, then the professions but 'Médecin'. */
export function categoryOptions(meta: Meta | null): CategoryOption[] {
  if (!meta) return [];
  const byName = (a: CategoryOption, b: CategoryOption) => a.name.localeCompare(b.name, 'fr');
  const specialties = meta.specialties
    .map((item): CategoryOption => ({ label: 'Specialty', id: item.id, name: item.name }))
    .sort((a, b) => Number(b.id === GENERAL_MEDICINE) - Number(a.id === GENERAL_MEDICINE) || byName(a, b));
  const professions = meta.professions
    .filter((item) => item.name !== DOCTOR)
    .map((item): CategoryOption => ({ label: 'Profession', id: item.id, name: item.name }))
    .sort(byName);
  return [...specialties, ...professions];
}
