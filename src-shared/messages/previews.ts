import { notice } from './notice';

/**
 * Texts of the previews, screenshots and the BAT placeholder (adverts-articles.md §2.2, §2.6, §8). Spec texts
 * letter for letter; the others are marked "not in the spec".
 */
export const PREVIEW_MESSAGES = {
  /** The preview's scrollable stage, named for the keyboard and screen readers (WCAG scrollable region). */
  previewStage: 'Aperçu',
  // §2.2
  saveToPreview: 'Enregistrez la publicité pour accéder à la preview',
  /** The same for a new article (docs/content.md, field labels: an article is no advert). */
  saveArticleToPreview: "Enregistrez l'article pour accéder à la preview",
  typeMissing: 'Advert type is missing.',
  capture: 'Créer une capture de la preview',
  readMore: 'Lire la suite',
  // §8 success toast
  captureAvailable: "Votre capture est disponible dans l'onglet BAT",
  // §2.6 empty state
  batMissing: "Le BAT n'existe pas. Capturez une preview pour commencer.",
  // not in the spec
  zoomIn: 'Agrandir la preview',
  zoomOut: 'Réduire la preview',
  expand: 'Déplier la preview',
  collapse: 'Replier la preview',
  editBat: 'Éditer le BAT',
  capturing: 'Capture en cours…',
  captureFailed: (error: string) => `Une erreur est survenue: ${error}`,
  unknownType: (type: string) => `Pas de preview pour le type ${type}`,
  batTitle: (id: number) => `BAT de la publicité ${id}`,
  batComingLater:
    "L'éditeur de BAT (pages, calques, flèches, export PDF) arrive dans une prochaine version. Vos captures de la preview sont gardées ici.",
  batScreenshots: 'Captures de la preview',
  backToAdvert: '← Retour à la publicité',
  advertNotFound: "Cette publicité n'existe pas.",
  screenshotAdvertMissing: "Cette publicité n'existe pas.",
  screenshotTooLarge: (width: number, height: number, side: number) => `Capture trop grande : ${width} × ${height} px (${side} px de côté au plus).`,
} as const;

const M = PREVIEW_MESSAGES;

export const PREVIEW_NOTICES = {
  captureAvailable: notice(M.captureAvailable, 'success', 3000),
  /** Screenshot errors: the server's message as an error toast (§8). */
  captureFailed: (error: string) => notice(error, 'error', 3000),
  userNotAllowed: notice('User not allowed', 'error', 3000),
} as const;
