/**
 * How the advert and article editors label each field of an item (docs/content.md, field labels): the publication errors, the
 * server's validation answers and the history name fields by these labels, never by their keys. Keys are the
 * fields' dotted paths without array indices ('story.screens.link'); a top-level key is its own path.
 */
const LABELS: Record<string, string> = {
  name: 'Nom',
  version: 'Version',
  label: 'Libellé',
  type: 'Type',
  weight: "Poids d'affichage",
  maxViews: 'Vues max par utilisateur',
  isSeen: 'Vu',
  published: 'Publié',
  archived: 'Archivé',
  showReadMore: "Afficher 'Lire la suite'",
  openIn: 'Ouverture',
  pixelTrackingUrl: 'URL du pixel de tracking',
  autoStartAt: 'Publication automatique le',
  autoStopAt: 'Dé-publication automatique le',
  logo: 'Logo',
  image: 'Image',
  images: 'Images',
  imageSmall: 'Petite image',
  video: 'Vidéo',
  source: 'Source',
  author: 'Auteur',
  title: 'Titre',
  subtitle: 'Sous-titre (partenariat)',
  tagline: 'Texte principal',
  description: 'Texte secondaire',
  footNote: 'Mention légale',
  buttonLabel: 'Libellé du bouton',
  autoPublishOptions: 'Publication automatique',
  'autoPublishOptions.activated': 'Prévenir par e-mail',
  'autoPublishOptions.emails': 'E-mails (séparés par des virgules)',
  adVersion: 'Version',
  sharing: 'Options de partage',
  'sharing.enableLikes': "J'aime",
  'sharing.enableBookmarking': 'Favoris',
  'sharing.enableSharing': 'Partage',
  'sharing.sharingLink': 'Lien de partage',
  'sharing.sharingMessage': 'Message de partage',
  quiz: 'Quiz',
  'quiz.questions': 'Questions du quiz',
  'quiz.questions.id': 'Identifiant de la question',
  'quiz.questions.answer': 'Réponse',
  'quiz.questions.correct': 'Bonne réponse',
  'quiz.questions.percentage': 'Pourcentage',
  'quiz.allowMultipleAnswers': 'Plusieurs réponses possibles',
  'quiz.link': 'Lien du quiz',
  'quiz.isSurvey': 'Sondage (pas de bonne réponse)',
  'quiz.votersCount': 'Nombre de votants',
  'quiz.votersCountDefault': 'Nombre de votants de départ',
  'quiz.answerButtonLabel': 'Libellé après réponse',
  'quiz.validateButtonLabel': 'Libellé du bouton valider',
  'quiz.hasAnswered': 'A répondu',
  'quiz.answeredIds': 'Réponses données',
  story: 'Story',
  'story.logo': 'Logo',
  'story.title': 'Titre de la story',
  'story.subtitle': 'Sous-titre de la story',
  'story.position': 'Position de la story',
  'story.forward': 'Avance automatique',
  'story.screens': 'Écrans de la story',
  'story.isSeen': 'Vu',
  'story.resetAt': 'Remise à zéro de la story',
  'story.screens.id': "Identifiant de l'écran",
  'story.screens.uuid': "Identifiant de l'écran",
  'story.screens.logo': "Logo de l'écran",
  'story.screens.title': "Titre de l'écran",
  'story.screens.subtitle': "Sous-titre de l'écran",
  'story.screens.titleColor': 'Couleur du titre',
  'story.screens.subtitleColor': 'Couleur du sous-titre',
  'story.screens.backgroundColor': 'Couleur du fond',
  'story.screens.illustration': "Illustration de l'écran",
  'story.screens.link': "Lien de l'écran",
  'story.screens.position': "Position de l'écran",
  'story.screens.footerButtonText': 'Texte du bouton de pied',
  'story.screens.footerButtonTextColor': 'Couleur du texte du bouton de pied',
  'story.screens.footerChevronColor': 'Couleur du chevron',
  'story.screens.footerBgColor': 'Couleur du fond du pied',
  richContent: 'Contenu riche',
  callToAction: "Bouton d'action",
  'callToAction.text': 'Texte du bouton',
  'callToAction.textColor': 'Couleur du texte',
  'callToAction.backgroundColor': 'Couleur du fond',
  // Adverts.
  isFree: 'Gratuit',
  promoteInSearch: 'Promouvoir dans la recherche',
  sonataId: "Sonata ID (id externe de l'outil)",
  bannerLink: 'Lien de la bannière',
  search: 'Recherche',
  'search.position': 'Position dans la recherche',
  'search.tabs': 'Onglets',
  'search.association': 'Association',
  tool: 'Outil',
  'tool.sponsored': 'Sponsorisé',
  'tool.sponsoredFromDate': 'Sponsorisé à partir du',
  'tool.sponsoredToDate': "Sponsorisé jusqu'au",
  // Articles.
  isPinned: 'Épinglé',
  isNew: 'Nouveau',
  tag: 'Tag',
  'tag.text': 'Tag',
  'tag.tagColor': 'Couleur du tag',
  // Read-only fields a write may send back.
  id: 'Identifiant',
  model: 'Modèle',
  createdAt: 'Création',
  updatedAt: 'Modification',
  publishedAt: 'Publication',
  unpublishedAt: 'Dé-publication',
  targetId: 'Cible',
  _$target: 'Cible',
  '_$target.id': 'Cible',
  '_$target.projectId': 'Projet',
  '_$target.initialQuotationDate': 'Date du devis initial',
  '_$target.endDate': 'Date de fin',
  '_$target.revenue': "Chiffre d'affaires",
  '_$target.delayReason': 'Raison du retard',
  '_$target.releaseDateDiff': 'Écart de date de lancement',
  '_$target.revenueDelayImpact': "Impact du retard sur le chiffre d'affaires",
  '_$target.actionCode': "Code d'action",
  _$audiences: 'Audiences',
  _$pinnedArticles: 'Contenus épinglés',
  isInCatalog: 'Catalogue',
};

/** A story screen written alone (`{ screen }` of the story screen calls) is labelled as in the story. */
export const CONTENT_FIELD_LABELS: Readonly<Record<string, string>> = {
  ...LABELS,
  ...Object.fromEntries(
    Object.entries(LABELS)
      .filter(([path]) => path.startsWith('story.screens.'))
      .map(([path, label]) => [`screen.${path.slice('story.screens.'.length)}`, label]),
  ),
};

/** The path of a field without its array indices: `story.screens.0.link` → `story.screens.link`. */
export const labelPathOf = (path: string | readonly PropertyKey[]) =>
  (typeof path === 'string' ? path.split('.') : path.map(String)).filter((segment) => !/^\d+$/.test(segment)).join('.');

/** The editor's label of a content field (its key when none: never expected, see the unit test). */
export const contentFieldLabel = (path: string) => CONTENT_FIELD_LABELS[labelPathOf(path)] ?? path;

/**
 * The editor field a server answer names ('advert.story.screens.0.link', 'screen.link'): the longest labelled
 * tail of its path without indices, a story screen's field as in the story. Null when no editor field matches.
 */
export function contentFieldPath(field: string): string | null {
  const named = labelPathOf(field).split('.');
  for (let start = 0; start < named.length; start++) {
    const path = named.slice(start).join('.');
    if (path.startsWith('screen.')) return `story.screens.${path.slice('screen.'.length)}`;
    if (LABELS[path]) return path;
  }
  return null;
}

export const CONTENT_FIELD_MESSAGES = {
  /** Reason after the label, as validation answers put it ('Source : adresse http ou https attendue'). */
  webUrl: 'adresse http ou https attendue',
  mediaUrl: 'adresse http ou https attendue',
  linkUrl: 'adresse http ou https ou deeplink attendue',
  /** At the field in the editor, and in the save warning. */
  invalidUrl: (label: string) => `${label} : adresse http ou https attendue`,
  invalidLink: (label: string) => `${label} : adresse http ou https ou deeplink attendue`,
  /** A scheduling date set in the past (docs/content.md, scheduling). */
  dateInPast: (label: string) => `${label} : date à venir attendue`,
  /** An auto-stop at or before the auto-start. */
  stopBeforeStart: (label: string, startLabel: string) => `${label} : date postérieure à « ${startLabel} » attendue`,
} as const;

/**
 * How the editor's history names each recorded change (docs/content.md, history): the server records a key, staff
 * read these words. A key not listed (a newer server) is shown as 'Modification'.
 */
export const HISTORY_ACTION_LABELS: Readonly<Record<string, string>> = {
  create: 'Création',
  update: 'Modification',
  publish: 'Publication',
  unpublish: 'Dé-publication',
  campaignStart: 'Lancement de la campagne',
  campaignEnd: 'Fin de la campagne',
  autopublish: 'Publication automatique',
  autounpublish: 'Dé-publication automatique',
  restore: 'Restauration',
  attach: 'Audiences modifiées',
  storyReset: 'Remise à zéro de la story',
  delete: 'Suppression',
  migrate: 'Conversion',
  modelMigration: 'Migration du modèle',
};

export const historyActionLabel = (action: string) => HISTORY_ACTION_LABELS[action] ?? HISTORY_ACTION_LABELS.update;
