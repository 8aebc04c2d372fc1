/**
 * The question asked before leaving an editor with unsaved changes (docs/content.md, unsaved changes; the spec has no text for
 * it): in the app's modal on an in-app navigation, in a native dialog when the desktop window closes or reloads.
 */
export const UNSAVED_CHANGES_MESSAGES = {
  leaveQuestion: 'Des modifications ne sont pas enregistrées. Quitter sans enregistrer ?',
  leave: 'Quitter',
  stay: 'Rester',
  leaveTitle: 'Modifications non enregistrées',
} as const;
