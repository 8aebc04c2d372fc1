import { ADVERT_MESSAGES } from './adverts';
import { notice } from './notice';

const URL_PREFILL_PREFIX = ADVERT_MESSAGES.urlFetchFailed;

/**
 * Texts of the advert and article screens (adverts-articles.md §2, §4, §5, §8; platform.md §8). Spec texts are
 * letter for letter, its spelling mistakes included ('suppirmée', 'palteforme', 'saise'): they are what staff know.
 * Texts the spec does not quote are marked "not in the spec". Those the server answers too (not found, the name and
 * publication checks, an invalid URL) are ADVERT_MESSAGES, never repeated here.
 */
export const ADVERT_SCREEN_MESSAGES = {
  // §2.1 list
  newPost: 'Nouveau post',
  adBlocker: 'Add block est activé. La palteforme pourrait ne pas fonctionner correctement.',
  noDataToExport: 'No data to export',
  confirmDelete: 'It cannot be undone, are you sure?',
  // §2.2 editor states
  notMigrated: (name: string) => `${name} has not been migrated yet.`,
  typeMissing: 'Advert type is missing.',
  expertWarning: 'ATTENTION: une des audiences ne vise pas les EXPERTs!',
  saveToAttachAudience: 'Enregistrez la publicité pour associer une audience',
  saveToPreview: 'Enregistrez la publicité pour accéder à la preview',
  // §2.2 labels and actions
  published: 'Publié',
  scheduledStart: (date: string) => `Prog: ${date}`,
  scheduledStop: (date: string) => `Fin: ${date}`,
  startCampaign: 'Démarrer la campagne',
  endCampaign: 'Terminer la campagne',
  publish: 'Publier',
  unpublish: 'Dépublier',
  publishArticle: 'Publier le post',
  unpublishArticle: 'Dépublier le post',
  contentOnline: 'Le contenu est en ligne',
  contentOffline: 'Le contenu est offline',
  delayReasonTitle: 'Quelle est la raison du retard :',
  cancel: 'Annuler',
  confirm: 'Confirmer',
  convertToArticle: 'Convertir en post contenu',
  convertToArticleQuestion: 'Convertir en post contenu ?',
  convertDetachesAudience: "Cette action détachera l'audience associée à la publicité",
  clear: 'Clear',
  // §8 toasts
  saving: 'Saving...',
  pleaseWait: 'Patientez...',
  saved: 'Enregistré',
  advertDeleted: 'La publicité a été suppirmée',
  articleDeleted: 'Le post contenu a été supprimé',
  saveFailed: (error: string) => `Une erreur est survenue lors de l'upload ${error}`,
  linkCopied: 'Link copied',
  copyFailed: 'Failed to copy actions',
  userNotAllowed: 'User not allowed',
  // §5 save-time checks
  autoPublishEmailRequired: 'Au moins un email doit être renseigné pour la publication automatique',
  articleNameRequired: 'Le nom du contenu est requis',
  startDateRequired: 'La date de publication est requise',
  stopDateRequired: 'La date de dé-publication est requise',
  maxViewsInvalid: 'Vues max par utilisateur : nombre entier de 0 à 1000000 attendu',
  storyColourInvalid: "Il y a une erreur dans le format d'une couleur de story",
  advertTypeRequired: "Le type de l'advert est requis",
  articleAreaRequired: "L'Area de l'audience est requise",
  sonataIdRequired: 'Sonata ID is required',
  // §5 other rules
  deeplinkIdInvalid: "Lettres, chiffres, '-' et '_' uniquement",
  deeplinkUrlInvalid: "L'url saise est invalide",
  // The server's own answer already carries the prefix (its reasons follow it): said once, not twice.
  urlPrefillFailed: (error: string) => (error.startsWith(URL_PREFILL_PREFIX) ? error : `${URL_PREFILL_PREFIX}${error}`),
  prefillImageNotUploadable: "L'image de ce site ne peut être uploadée",
  prefillLogoNotUploadable: 'Le logo de ce site ne peut être uploadé',
  genericError: (error: string) => `Une erreur est survenue: ${error}`,

  // not in the spec
  deeplinkTermRequired: 'Saisissez un terme de recherche',
  deeplinkSchemeInvalid: 'Schéma invalide (ex. app)',
  convertToAdvert: 'Convertir en publicité',
  convertToAdvertQuestion: 'Convertir en publicité ?',
  convertArticleDetachesAudience: "Cette action détachera l'audience associée au contenu",
  prefillDone: 'Données récupérées depuis l’URL',
  prefillMissing: (missing: readonly string[]) => `Données récupérées depuis l’URL (manquant : ${missing.join(', ')})`,
  trackingPixelWarning: "L'URL du pixel de tracking doit être validée par l'équipe technique",
  uploadsPlaceholder: 'Upload des visuels : à venir (prochaine version)',
  importTitle: 'Importer des publicités (CSV)',
  importNothingImported: "Aucune ligne n'a été importée : corrigez les erreurs puis recommencez.",
  importDone: (rows: number) => `${rows} publicité${rows > 1 ? 's' : ''} importée${rows > 1 ? 's' : ''}`,
  migrationTitle: 'Migrations',
  migrationIntro: "Publicités et contenus enregistrés dans un ancien format : la migration les passe au format actuel (modèle 'latest').",
  migrationEmpty: 'Tout est au format actuel.',
  migrationDone: (count: number) => `${count} élément${count > 1 ? 's' : ''} migré${count > 1 ? 's' : ''}`,
  migrationFailed: (count: number) => `${count} élément${count > 1 ? 's' : ''} non migré${count > 1 ? 's' : ''}`,
  saveToCreateFunnel: 'Enregistrez la publicité pour créer un funnel',
  funnelCreated: 'Funnel créé',
  funnelDeleted: 'Funnel supprimé',
  noFunnel: "Cette publicité n'appartient à aucun funnel",
  alertsTitle: 'Publication automatique',
  alertsNone: 'Aucune alerte',
  shouldBePublished: 'Devraient être publiées',
  shouldBeUnpublished: 'Devraient être dépubliées',
} as const;

const M = ADVERT_SCREEN_MESSAGES;

/** The toasts of these screens with their kind and duration (§5: warnings 3 s; §8 durations where given). */
export const ADVERT_SCREEN_NOTICES = {
  noDataToExport: notice(M.noDataToExport, 'warning', 2000),
  adBlocker: notice(M.adBlocker, 'alert', 5000),
  saving: notice(M.saving, 'info', 1500),
  pleaseWait: notice(M.pleaseWait, 'info', 1500),
  saved: notice(M.saved, 'success', 3000),
  contentOnline: notice(M.contentOnline, 'success', 3000),
  contentOffline: notice(M.contentOffline, 'success', 3000),
  advertDeleted: notice(M.advertDeleted, 'success', 3000),
  articleDeleted: notice(M.articleDeleted, 'success', 3000),
  linkCopied: notice(M.linkCopied, 'success', 3000),
  copyFailed: notice(M.copyFailed, 'error', 3000),
  userNotAllowed: notice(M.userNotAllowed, 'error', 3000),
  /** Save-time validation: the messages joined by ' / ', 3 s (§5). */
  validation: (messages: readonly string[]) => notice(messages.join(' / '), 'warning', 3000),
  saveFailed: (error: string) => notice(M.saveFailed(error), 'error', 3000),
  /** Publish, convert and screenshot errors: the server's message (§8). */
  serverError: (error: string) => notice(error, 'error', 3000),
  /** Audience search error: error toast 3 s (§8). */
  audienceSearchFailed: (error: string) => notice(error, 'error', 3000),
  urlInvalid: notice(ADVERT_MESSAGES.invalidUrl, 'warning', 3000),
  urlPrefillFailed: (error: string) => notice(M.urlPrefillFailed(error), 'error', 3000),
  prefillDone: (missing: readonly string[]) => notice(missing.length ? M.prefillMissing(missing) : M.prefillDone, 'success', 3000),
  trackingPixelWarning: notice(M.trackingPixelWarning, 'warning', 3000),
  importDone: (rows: number) => notice(M.importDone(rows), 'success', 3000),
  migrationDone: (count: number) => notice(M.migrationDone(count), 'success', 3000),
  migrationFailed: (count: number) => notice(M.migrationFailed(count), 'error', 3000),
  funnelCreated: notice(M.funnelCreated, 'success', 3000),
  funnelDeleted: notice(M.funnelDeleted, 'success', 3000),
} as const;
