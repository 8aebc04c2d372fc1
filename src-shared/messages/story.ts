import { notice } from './notice';

/**
 * Texts of the story screen editor (adverts-articles.md §2.3, §8). Spec texts are letter for letter; the others
 * are marked "not in the spec".
 */
export const STORY_MESSAGES = {
  // Spec texts.
  confirmDeleteScreen: (screenNumber: number) => `Supprimer l'écran n°${screenNumber}`,
  screenDeleted: 'Ecran supprimé',
  // Not in the spec.
  saveFirst: 'Enregistrez pour ajouter des écrans à la story',
  noScreen: "Cette story n'a pas encore d'écran",
  screenAdded: 'Écran ajouté',
  invalidColour: 'Couleur invalide : #rgb ou #rrggbb',
  uploadIllustration: 'Uploader une image ou vidéo',
  uploadScreenLogo: "Uploader le logo de l'écran",
  uploadStoryLogo: 'Uploader le logo de la story',
  removeIllustration: "Retirer l'image ou la vidéo",
  /** The story creator's screenshot button (§2.3: 'a screenshot button in the story creator'). */
  captureScreen: "Créer une capture de l'écran",
  bulletsLabel: 'Écrans de la story (Espace pour saisir, flèches pour déplacer, Alt+flèche pour déplacer directement)',
} as const;

/** Toasts of the story editor (the upload toasts of §8 are in advert-media.ts, shared with the other uploads). */
export const STORY_NOTICES = {
  screenDeleted: notice(STORY_MESSAGES.screenDeleted, 'success'),
  screenAdded: notice(STORY_MESSAGES.screenAdded, 'success'),
} as const;
