/** Spec §9: filter search debounce 280 ms, option names cut at 30 characters. */
export const FILTER_SEARCH_DEBOUNCE_MS = 280;
export const truncate = (text: string) => (text.length > 30 ? `${text.slice(0, 30)}…` : text);

export type TextFilterKey = 'name' | 'clientName' | 'populationCategory' | 'populationSample';
export type ListFilterKey = 'keyAccount' | 'projectStatus' | 'targetStatus' | 'type';
export type DateFilterKey = 'startDate' | 'checkDate' | 'endDate';

export const TEXT_FILTERS: { key: TextFilterKey; label: string; source: 'Project' | 'Target' }[] = [
  { key: 'name', label: 'Projet', source: 'Project' },
  { key: 'clientName', label: 'Client', source: 'Project' },
  { key: 'populationCategory', label: 'Spé', source: 'Target' },
  { key: 'populationSample', label: 'Ciblage', source: 'Target' },
];
export const DATE_FILTERS: { key: DateFilterKey; label: string }[] = [
  { key: 'startDate', label: 'Date de début' },
  { key: 'checkDate', label: 'Deadline sortie KPIs' },
  { key: 'endDate', label: 'Date de fin' },
];
export const LIST_LABELS: Record<ListFilterKey, string> = { keyAccount: 'CSM', projectStatus: 'Statut projet', targetStatus: 'Status', type: 'Type' };
export const TEXT_LABELS = Object.fromEntries(TEXT_FILTERS.map((filter) => [filter.key, filter.label])) as Record<TextFilterKey, string>;
export const DATE_LABELS = Object.fromEntries(DATE_FILTERS.map((filter) => [filter.key, filter.label])) as Record<DateFilterKey, string>;
