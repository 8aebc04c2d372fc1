import { notice } from './notice';

/** Audiences, groups, the app-user population and test accounts (audiences-projects-tools.md §4, §5, §8; issue 8). */
export const AUDIENCE_MESSAGES = {
  // Spec texts, letter for letter.
  audienceNeedsCriterion: "Associez un critère pour pouvoir sauvegarder l'audience",
  audienceLoadFailed: "Erreur lors du chargement de l'audience",
  audienceSizeFailed: "erreur lors du calcul de la taille d'audience",
  audienceNotSaved: 'Audience non sauvegardée',
  interactionsReset: 'Réinitialisation des interactions effectuée',
  // Server answers of this issue (not quoted by the spec).
  audienceNotFound: 'Audience introuvable',
  groupNotFound: 'Groupe introuvable',
  appUserNotFound: 'Utilisateur introuvable',
  nodeNotFound: 'Critère introuvable',
  keywordOnTimeline: "Un mot-clé ne peut pas être ajouté à une audience timeline",
  eventNotForLabel: "Cet événement ne s'applique pas à ce type de critère",
  groupCycle: 'Un groupe ne peut pas se contenir lui-même',
  groupLabelMismatch: "Le type du groupe ne correspond pas",
  groupNameMismatch: 'Le nom ne correspond pas au groupe',
  areaInRelationships: "L'area se choisit avec le champ area, pas comme critère",
  onlyGroupsDeleted: 'Seuls les groupes peuvent être supprimés',
  relationshipSourceNotFound: 'Audience ou groupe introuvable',
  duplicateInRequest: 'en double dans la requête',
  unknownUser: 'utilisateur inconnu',
  ingestTokenRefused: 'Jeton de service invalide',
} as const;

export const AUDIENCE_NOTICES = {
  loadFailed: notice(AUDIENCE_MESSAGES.audienceLoadFailed, 'warning', 3000),
  sizeFailed: notice(AUDIENCE_MESSAGES.audienceSizeFailed, 'warning', 3000),
  notSaved: notice(AUDIENCE_MESSAGES.audienceNotSaved, 'warning'),
  needsCriterion: notice(AUDIENCE_MESSAGES.audienceNeedsCriterion, 'warning'),
  interactionsReset: notice(AUDIENCE_MESSAGES.interactionsReset, 'success', 3500),
} as const;
