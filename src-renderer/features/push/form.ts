import type { PushWhereInput } from '@shared/contract/push';
import { DEFAULT_AREA, DEFAULT_CUSTOM_ID, type ExpertChoice } from '@shared/rules/push';

/** What the page's form holds: the notification and its targeting. */
export interface PushForm {
  title: string;
  body: string;
  navigation: string;
  customId: string;
  area: string;
  professions: number[];
  specialties: number[];
  titles: string[];
  os: string[];
  expert: ExpertChoice;
  clause: string;
}

export const emptyPushForm = (): PushForm => ({
  title: '',
  body: '',
  navigation: '',
  customId: DEFAULT_CUSTOM_ID,
  area: DEFAULT_AREA,
  professions: [],
  specialties: [],
  titles: [],
  os: [],
  expert: 'all',
  clause: '',
});

/** The targeting as the calls take it: an empty choice is [''] (platform.md §5: skipped when the first entry is empty). */
export function whereOf(form: PushForm): PushWhereInput {
  const orSkipped = <T>(values: T[]): (T | '')[] => (values.length ? values : ['']);
  return {
    area: form.area,
    professions: form.professions,
    specialties: orSkipped(form.specialties),
    titles: orSkipped(form.titles) as string[],
    os: orSkipped(form.os) as string[],
    expert: form.expert,
    clause: form.clause,
  };
}

/** The form field a failure names (`where.clause`, `notification.title`, ...). */
export function formFieldOf(field: string | undefined): keyof PushForm | null {
  const last = field?.split('.').at(-1);
  const known: (keyof PushForm)[] = ['title', 'body', 'navigation', 'customId', 'area', 'clause'];
  return known.find((name) => name === last) ?? null;
}

/** Thousands with spaces (platform.md §9). */
export const formatCount = (value: number): string => String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
