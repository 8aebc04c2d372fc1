import { BAT_VERSION_STATE_LABELS, type BatItemType, type BatVersionState } from '../rules/bat';

const BAT_ITEM_LABELS: Record<BatItemType, string> = { text: 'texte', image: 'image', arrow: 'flèche' };
import { notice } from './notice';

/**
 * Texts of the proof (BAT) editor (adverts-articles.md §2.6, §8). Spec texts letter for letter; the others are
 * marked "not in the spec".
 */
export const BAT_MESSAGES = {
  // §2.6 empty state and toasts
  batMissing: "Le BAT n'existe pas. Capturez une preview pour commencer.",
  imageImported: 'Image importé avec succès',
  imageDeleted: 'Image supprimée avec succès',
  pageDeleted: 'la page a été supprimée',
  // §6, §8
  userNotAllowed: 'User not allowed',
  advertNotFound: "Cette publicité n'existe pas.",
  // not in the spec
  stale: "Le BAT a été modifié par quelqu'un d'autre depuis votre dernière version. Rechargez-le pour voir ses changements.",
  reload: 'Recharger le BAT',
  /** After the 409's sentence naming who changed the proof (docs/architecture.md, "Versions and conflicts"). */
  staleKeepsYours: 'Vos modifications sont conservées : rechargez-le pour les reprendre sur sa version.',
  mergedItems: 'Vos éléments non enregistrés sont repris sur la nouvelle version du BAT. Choisissez pour ceux que vous avez modifiés tous les deux.',
  itemDeleted: '(supprimé)',
  itemLabel: (page: number, type: BatItemType) => `Page ${page} — ${BAT_ITEM_LABELS[type]}`,
  itemAt: (type: BatItemType, x: number, y: number) => `${BAT_ITEM_LABELS[type]} en ${x}, ${y}`,
  lastLayer: "Un calque ne peut être supprimé que s'il en reste un autre.",
  lastPage: 'La dernière page du BAT ne peut pas être supprimée.',
  pageMissing: "Cette page n'existe pas.",
  layerMissing: "Ce calque n'existe pas.",
  screenshotMissing: "Cette capture n'existe pas.",
  duplicateItem: (i: string) => `L'élément ${i} apparaît deux fois.`,
  itemInvalid: (i: string, reason: string) => `Élément ${i} : ${reason}`,
  collision: (a: string, b: string) => `Les éléments ${a} et ${b} se chevauchent.`,
  noRoom: "Il n'y a plus de place libre sur ce calque.",
  versionMissing: "Cette version n'existe pas.",
  versionMove: (from: BatVersionState, to: BatVersionState) =>
    `Une version « ${BAT_VERSION_STATE_LABELS[from]} » ne peut pas passer à « ${BAT_VERSION_STATE_LABELS[to]} ».`,
  versionFrozen: (number: number) => `Version ${number} enregistrée dans les documents du client.`,
  versionMoved: (number: number, state: BatVersionState) => `Version ${number} : ${BAT_VERSION_STATE_LABELS[state]}`,
  pdfSaved: (savedAs: string) => `PDF enregistré : ${savedAs}`,
  pdfCancelled: 'Export du PDF annulé.',
  pdfFailed: (error: string) => `Une erreur est survenue: ${error}`,
  saving: 'Enregistrement…',
  saved: 'Enregistré',
  back: '← Retour à la publicité',
  // The proof on the advert editor's toolbar, beside 'Page projet' (not in the spec)
  toolbarVersion: (number: number, state: BatVersionState) => `BAT v${number} : ${BAT_VERSION_STATE_LABELS[state]}`,
  toolbarNoVersion: 'BAT : aucune version figée',
  toolbarStateBy: (who: string, when: string) => `${who}, ${when}`,
  title: (id: number) => `BAT de la publicité ${id}`,
} as const;

const M = BAT_MESSAGES;

/** Errors are error toasts of 2.5 to 3.5 s (§2.6): 3 s. */
export const BAT_NOTICES = {
  imageImported: notice(M.imageImported, 'success', 3000),
  imageDeleted: notice(M.imageDeleted, 'success', 3000),
  pageDeleted: notice(M.pageDeleted, 'success', 3000),
  error: (text: string) => notice(text, 'error', 3000),
  info: (text: string) => notice(text, 'info', 3000),
  success: (text: string) => notice(text, 'success', 3000),
} as const;
