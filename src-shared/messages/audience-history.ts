import { notice } from './notice';

/** History of audiences and groups (docs/audience-history.md, beyond the spec: texts of ours). */
export const AUDIENCE_HISTORY_MESSAGES = {
  historyAudienceNotDeleted: "Cette audience n'a pas été supprimée",
  historyAudienceExists: 'Cette audience existe déjà',
  historyAudienceRestored: 'Audience {name} restaurée',
  historyNothingDeleted: 'Aucune suppression à restaurer',
  /** A restore would bring back an audience with only its area, which matches every user of that area. */
  historyAudienceNoCriterion: "Cette audience n'a plus aucun critère : elle ne peut pas être restaurée",
} as const;

export const AUDIENCE_HISTORY_NOTICES = {
  restored: (name: string) => notice(AUDIENCE_HISTORY_MESSAGES.historyAudienceRestored.replace('{name}', name), 'success'),
  failed: notice('', 'error', 3500),
} as const;
