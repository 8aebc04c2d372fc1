import { PROFESSIONS, SPECIALTIES } from '@shared/reference';
import { targetingSummary, type PushWhere } from '@shared/rules/push';

const names = {
  professions: new Map(PROFESSIONS.map((item) => [item.id, item.name])),
  specialties: new Map(SPECIALTIES.map((item) => [item.id, item.name])),
};

/** A campaign's one-line targeting for the history, professions and specialties by name. */
export const campaignSummary = (where: PushWhere): string => targetingSummary(where, names);
