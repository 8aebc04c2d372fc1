import { notice } from './notice';

/**
 * Texts of the story screen editor (adverts-articles.md §2.3, §8). Spec texts are letter for letter; the others
 * are marked "not in the spec".
 */
export const STORY_MESSAGES = {
  // Spec texts.
  confirmDeleteScreen: (screenNumber: number) => `Supprimer l'écran n°${screenNumber}`,
  screenDeleted: 'Ecran supprimé',
  logoSaved: 'Logo enregistré',
  mediaSaved: 'Image ou video enregistrée',
  uploadFailed: (error: string) => `Une erreur est survenue: ${error}`,
  storyColourInvalid: "Il y a une erreur dans le format d'une couleur de story",
  // Not in the spec.
  saveFirst: 'Enregistrez la publicité pour ajouter des écrans',
  noScreen: "Cette story n'a pas encore d'écran",
  screenAdded: 'Écran ajouté',
  invalidColour: 'Couleur invalide : #rgb ou #rrggbb',
  bulletsLabel: 'Écrans de la story (Espace pour saisir, flèches pour déplacer, Alt+flèche pour déplacer directement)',
} as const;

/** Toasts of the story editor with their kind and duration (§8: the screen uploads' success toasts last 1300 ms). */
export const STORY_NOTICES = {
  screenDeleted: notice(STORY_MESSAGES.screenDeleted, 'success'),
  screenAdded: notice(STORY_MESSAGES.screenAdded, 'success'),
  logoSaved: notice(STORY_MESSAGES.logoSaved, 'success', 1300),
  mediaSaved: notice(STORY_MESSAGES.mediaSaved, 'success', 1300),
  /** 'Une erreur est survenue: {error}' (2500 ms) on upload or delete failure (§8). */
  uploadFailed: (error: string) => notice(STORY_MESSAGES.uploadFailed(error), 'error', 2500),
} as const;
