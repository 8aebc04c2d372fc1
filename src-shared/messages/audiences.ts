import { notice } from './notice';

/** Audiences, groups, the app-user population and test accounts (audiences-projects-tools.md §4, §5, §8; docs/audiences.md). */
export const AUDIENCE_MESSAGES = {
  // Spec texts, letter for letter.
  audienceNeedsCriterion: "Associez un critère pour pouvoir sauvegarder l'audience",
  audienceLoadFailed: "Erreur lors du chargement de l'audience",
  audienceSizeFailed: "erreur lors du calcul de la taille d'audience",
  audienceNotSaved: 'Audience non sauvegardée',
  interactionsReset: 'Réinitialisation des interactions effectuée',
  saved: 'Saved.',
  audienceSaved: 'Audience saved.',
  areaSaved: 'Area saved.',
  audienceDeleted: (name: string) => `Audience ${name} supprimée`,
  audiencesDeleted: (count: number) => `${count} audience(s) supprimée(s)`,
  emailsAdded: (count: number) => `${count} ajoutés`,
  noEmailColumn: "Erreur: Le fichier ne contient pas de colonne 'emails'",
  // Editor texts (docs/audiences.md; the spec names them without wording).
  keywordAdvice: 'Évitez les accents et les majuscules : le mot-clé est enregistré en minuscules.',
  noExpertTarget: 'Aucun critère ne cible les experts (rôle ROLE_EXPERT).',
  chooseType: "Choisissez le type de l'audience.",
  /** 'Type : champ obligatoire' beside the field 'Sauvegarder' refused (an emptied name, no type). */
  fieldRequired: (label: string) => `${label} : champ obligatoire`,
  audienceNameLabel: "Nom de l'audience",
  audienceTypeLabel: 'Type',
  nodeAlreadyInGroup: 'Ce critère est déjà dans le groupe',
  noEmailLoaded: 'Aucun e-mail chargé',
  emailsLoaded: (count: number) => `${count} e-mail(s) chargé(s)`,
  emailsUnmatched: (count: number) => `${count} e-mail(s) sans compte correspondant`,
  /** '0 utilisateur', '1 utilisateur', '12 500 utilisateurs': French takes the singular for 0 and 1. */
  userCount: (count: number) => `${new Intl.NumberFormat('fr-FR').format(count).replace(/\s/g, ' ')} ${count < 2 ? 'utilisateur' : 'utilisateurs'}`,
  /**
   * What an e-mail list did (docs/audiences.md): '5 ajoutés, 0 inconnu, 2 invalides. Invalides : ligne 3 « jean@ », ligne 6
   * « pas-une-adresse ». Inconnus : a@b.fr'. Starts with the spec's '{n} ajoutés'; the first 3 of each kind named.
   */
  emailListReport: (report: {
    added: number;
    unknown: number;
    invalid: number;
    firstInvalid: { line: number; value: string }[];
    firstUnknown: string[];
  }) => {
    const count = (n: number, one: string) => `${n} ${one}${n > 1 ? 's' : ''}`;
    const parts = [`${report.added} ajoutés, ${count(report.unknown, 'inconnu')}, ${count(report.invalid, 'invalide')}`];
    const more = (shown: number, total: number) => (total > shown ? '…' : '');
    if (report.firstInvalid.length)
      parts.push(
        `Invalides : ${report.firstInvalid.map((row) => `ligne ${row.line} ${row.value ? `« ${row.value} »` : '(vide)'}`).join(', ')}${more(report.firstInvalid.length, report.invalid)}`,
      );
    if (report.firstUnknown.length) parts.push(`Inconnus : ${report.firstUnknown.join(', ')}${more(report.firstUnknown.length, report.unknown)}`);
    return `${parts.join('. ')}.`;
  },
  confirmDeleteAudience: (name: string) => `Supprimer l'audience ${name} ?`,
  confirmBulkDelete: (count: number) => `Supprimer ${count} audience(s) ?`,
  testerMember: "L'utilisateur appartient à l'audience",
  testerNotMember: "L'utilisateur n'appartient pas à l'audience",
  /** The criteria search found nothing for the term (docs/audiences.md, criteria search). */
  criteriaNoResult: 'Aucun résultat',
  // Server answers of this issue (not quoted by the spec).
  audienceNotFound: 'Audience introuvable',
  groupNotFound: 'Groupe introuvable',
  appUserNotFound: 'Utilisateur introuvable',
  nodeNotFound: 'Critère introuvable',
  keywordOnTimeline: 'Un mot-clé ne peut pas être ajouté à une audience timeline',
  eventNotForLabel: "Cet événement ne s'applique pas à ce type de critère",
  groupCycle: 'Un groupe ne peut pas se contenir lui-même',
  groupLabelMismatch: 'Le type du groupe ne correspond pas',
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
  saved: notice(AUDIENCE_MESSAGES.saved, 'success'),
  audienceSaved: notice(AUDIENCE_MESSAGES.audienceSaved, 'success'),
  areaSaved: notice(AUDIENCE_MESSAGES.areaSaved, 'success'),
  audienceDeleted: (name: string) => notice(AUDIENCE_MESSAGES.audienceDeleted(name), 'success'),
  audiencesDeleted: (count: number) => notice(AUDIENCE_MESSAGES.audiencesDeleted(count), 'success'),
  emailsAdded: (count: number) => notice(AUDIENCE_MESSAGES.emailsAdded(count), 'success'),
  /** An e-mail list with addresses left out (unknown or invalid): a warning long enough to read the rows named. */
  emailListReport: (text: string, clean: boolean) => notice(text, clean ? 'success' : 'warning', clean ? 3000 : 10_000),
  // Spec §8: 3 s; its kind is not given, and it is a failure of the import.
  noEmailColumn: notice(AUDIENCE_MESSAGES.noEmailColumn, 'error', 3000),
  keywordOnTimeline: notice(AUDIENCE_MESSAGES.keywordOnTimeline, 'alert'),
  nodeAlreadyInGroup: notice(AUDIENCE_MESSAGES.nodeAlreadyInGroup, 'warning'),
  /** Other server errors: an error toast with the message (spec §8). */
  serverError: notice('', 'error'),
} as const;
