import { notice } from './notice';

/** History of audiences and groups (issue 9 item 7, beyond the spec: texts of ours). */
export const AUDIENCE_HISTORY_MESSAGES = {
  historyAudienceNotDeleted: "Cette audience n'a pas été supprimée",
  historyAudienceExists: 'Cette audience existe déjà',
  historyAudienceRestored: 'Audience {name} restaurée',
  historyNothingDeleted: 'Aucune suppression à restaurer',
} as const;

export const AUDIENCE_HISTORY_NOTICES = {
  restored: (name: string) => notice(AUDIENCE_HISTORY_MESSAGES.historyAudienceRestored.replace('{name}', name), 'success'),
  failed: notice('', 'error', 3500),
} as const;
