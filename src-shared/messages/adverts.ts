import { notice } from './notice';

/**
 * Adverts and articles (adverts-articles.md §2, §5, §8): spec texts letter for letter (its spelling mistakes
 * included: they are what staff know), then this issue's own server answers.
 */
export const ADVERT_MESSAGES = {
  // Page states and editor texts (spec §2.2, §2.5, §8).
  advertNotFound: "Cette publicité n'existe pas.",
  notMigrated: '{name} has not been migrated yet.',
  advertTypeMissing: 'Advert type is missing.',
  saveToAttachAudience: 'Enregistrez la publicité pour associer une audience',
  saveToPreview: 'Enregistrez la publicité pour accéder à la preview',
  nonExpertAudienceWarning: 'ATTENTION: une des audiences ne vise pas les EXPERTs!',
  convertTitle: 'Convertir en post contenu ?',
  convertInfo: "Cette action détachera l'audience associée à la publicité",
  delayReasonQuestion: 'Quelle est la raison du retard :',
  startCampaign: 'Démarrer la campagne',
  stopCampaign: 'Terminer la campagne',
  publish: 'Publier',
  unpublish: 'Dépublier',
  publishArticle: 'Publier le post',
  unpublishArticle: 'Dépublier le post',
  contentOnline: 'Le contenu est en ligne',
  contentOffline: 'Le contenu est offline',
  adBlocker: 'Add block est activé. La palteforme pourrait ne pas fonctionner correctement.',
  noDataToExport: 'No data to export',
  advertDeleted: 'La publicité a été suppirmée',
  articleDeleted: 'Le post contenu a été supprimé',
  saved: 'Enregistré',
  saving: 'Saving...',
  screenDeleted: 'Ecran supprimé',
  // Save-time checks (spec §5).
  autoPublishEmailRequired: 'Au moins un email doit être renseigné pour la publication automatique',
  advertNameRequired: "Le nom de l'advert est requis",
  articleNameRequired: 'Le nom du contenu est requis',
  publicationDateRequired: 'La date de publication est requise',
  unpublicationDateRequired: 'La date de dé-publication est requise',
  storyColorFormat: "Il y a une erreur dans le format d'une couleur de story",
  advertTypeRequired: "Le type de l'advert est requis",
  articleAreaRequired: "L'Area de l'audience est requise",
  sonataIdRequired: 'Sonata ID is required',
  /** 'Les propriétés [list] sont requises': see requiredPropertiesMessage. */
  requiredProperties: 'Les propriétés {list} sont requises',
  // Publication checks (spec §5).
  videoRequired: 'Vous devez ajouter une vidéo avant de publier la publicité',
  noAudience: 'Aucune audience associée à la publicité',
  nonExpertAudience: 'Audience non expert associée à la publicité',
  // URL pre-fill (spec §5, §8).
  invalidUrl: "L'URL n'est pas valide",
  urlFetchFailed: "Impossible de récupérer les données depuis l'URL : ",
  // Server answers of this issue (not quoted by the spec).
  articleNotFound: "Ce contenu n'existe pas.",
  delayReasonRequired: 'La campagne démarre plus de 15 jours après la date de devis initiale : une raison du retard est requise',
  unknownProperty: 'Propriété inconnue',
  notConvertible: 'Seuls les posts, vidéos, quiz et stories peuvent être convertis',
  funnelNotFound: 'Funnel introuvable',
  advertAlreadyInFunnel: 'Cette publicité fait déjà partie d’un funnel',
  advertNotInFunnel: 'Cette publicité ne fait pas partie de ce funnel',
  notAStory: "Cette publicité n'est pas une story",
  storyReset: 'Expiration de la story réinitialisée',
  screenNotFound: 'Écran introuvable',
  historyEntryNotFound: 'Version introuvable',
  urlRefused: "Cette adresse n'est pas autorisée",
  urlTimeout: 'La page ne répond pas',
  // URL pre-fill limits (issue 19): reasons after urlFetchFailed, then the 429 answers.
  urlParseTooSlow: 'la page est trop longue à analyser',
  urlPageTooLarge: 'la page est trop volumineuse',
  urlParseFailed: "la page n'a pas pu être analysée",
  urlParseBusyForAccount: "Une analyse d'URL est déjà en cours pour votre compte : réessayez quand elle sera terminée",
  urlParseBusy: "Trop d'analyses d'URL en cours : réessayez dans quelques secondes",
} as const;

export const ADVERT_NOTICES = {
  online: notice(ADVERT_MESSAGES.contentOnline, 'success'),
  offline: notice(ADVERT_MESSAGES.contentOffline, 'success'),
  advertDeleted: notice(ADVERT_MESSAGES.advertDeleted, 'success'),
  articleDeleted: notice(ADVERT_MESSAGES.articleDeleted, 'success'),
  saved: notice(ADVERT_MESSAGES.saved, 'success'),
  saving: notice(ADVERT_MESSAGES.saving, 'info'),
  noDataToExport: notice(ADVERT_MESSAGES.noDataToExport, 'warning', 2000),
  /** Save-time and publication warnings: joined by ' / ', 3 s (spec §5). */
  validation: notice('', 'warning', 3000),
  adBlocker: notice(ADVERT_MESSAGES.adBlocker, 'alert'),
  /** Story reset: the server's answer, 4.5 s (spec §7). */
  storyReset: notice(ADVERT_MESSAGES.storyReset, 'success', 4500),
  urlFetchFailed: notice(ADVERT_MESSAGES.urlFetchFailed, 'error'),
  serverError: notice('', 'error'),
} as const;

/** Mails of the autopublish job (issue 10 §4); `{name}` is the item's name. */
export const AUTOPUBLISH_MAILS = {
  startedSubject: 'Publication automatique : {name}',
  startedBody: '« {name} » a été publié automatiquement le {date}.',
  stoppedSubject: 'Dépublication automatique : {name}',
  stoppedBody: '« {name} » a été dépublié automatiquement le {date}.',
  refusedSubject: 'Publication automatique impossible : {name}',
  refusedBody: "« {name} » n'a pas pu être publié automatiquement le {date} : {reason}",
} as const;
