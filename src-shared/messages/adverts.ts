/**
 * Adverts and articles (adverts-articles.md §2, §5, §8): the texts the server answers or the publication rules give
 * (spec texts letter for letter, its spelling mistakes included: they are what staff know), then this issue's own
 * server answers. Texts only the screens show live in advert-screens.ts; each text has one home.
 */
export const ADVERT_MESSAGES = {
  // Page states and editor texts (spec §2.2, §2.5, §8).
  advertNotFound: "Cette publicité n'existe pas.",
  // Save-time checks (spec §5).
  advertNameRequired: "Le nom de l'advert est requis",
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
  /** A write changing a field the caller's roles may not write (the Tracking URL, the quiz's starting voters). */
  fieldNotAllowed: "Vous n'avez pas le droit de modifier le champ « {field} »",
  urlRefused: "Cette adresse n'est pas autorisée",
  urlTimeout: 'La page ne répond pas',
  // URL pre-fill limits (docs/security.md): reasons after urlFetchFailed, then the 429 answers.
  urlParseTooSlow: 'la page est trop longue à analyser',
  urlPageTooLarge: 'la page est trop volumineuse',
  urlParseFailed: "la page n'a pas pu être analysée",
  urlParseBusyForAccount: "Une analyse d'URL est déjà en cours pour votre compte : réessayez quand elle sera terminée",
  urlParseBusy: "Trop d'analyses d'URL en cours : réessayez dans quelques secondes",
} as const;

/** Mails of the autopublish job (docs/content.md); `{name}` is the item's name. */
export const AUTOPUBLISH_MAILS = {
  startedSubject: 'Publication automatique : {name}',
  startedBody: '« {name} » a été publié automatiquement le {date}.',
  stoppedSubject: 'Dépublication automatique : {name}',
  stoppedBody: '« {name} » a été dépublié automatiquement le {date}.',
  refusedSubject: 'Publication automatique impossible : {name}',
  refusedBody: "« {name} » n'a pas pu être publié automatiquement le {date} : {reason}",
} as const;
