import { notice } from './notice';

/** Projects, targets, comments, briefings and estimates (audiences-projects-tools.md §2, §4, §8; docs/projects.md). */
export const PROJECT_MESSAGES = {
  /** A paste or edit left cells as somebody changed them meanwhile (docs/architecture.md, "Versions and conflicts"). */
  cellsChangedMeanwhile: (name: string | null, count: number) =>
    `${count === 1 ? 'Une cellule a été modifiée' : `${count} cellules ont été modifiées`} entre-temps par ${name ?? 'un autre utilisateur'} : ${count === 1 ? 'elle est marquée' : 'elles sont marquées'} dans le tableau, avec leur valeur et la vôtre.`,
  /** The review of the grid's cells changed meanwhile: one entry per cell, who and when, theirs and yours. */
  gridConflictsTitle: (count: number) => (count === 1 ? 'Une cellule modifiée entre-temps' : `${count} cellules modifiées entre-temps`),
  gridConflictsHint: 'La grille montre leur valeur. Choisissez pour chaque cellule : la vôtre est renvoyée, la leur reste.',
  gridConflictRow: (index: number, actionCode: string | null) => `Ligne ${index + 1}${actionCode ? ` · ${actionCode}` : ''}`,
  gridConflictBy: (name: string | null, time: string) => `Modifiée par ${name ?? 'un autre utilisateur'} à ${time}`,
  gridConflictShowCell: (cell: string) => `Aller à la cellule ${cell}`,
  // Spec texts, letter for letter.
  creationFailed: 'Sorry, an error occured',
  estimateNotFound: 'No estimate found with this ID',
  estimateImported: 'estimate imported with success!',
  advertDetached: "Elément détaché de l'action avec succès",
  actionsCopied: 'Actions copied',
  actionsCopyFailed: 'Failed to copy actions',
  cellCopied: 'Copy to clipboard!',
  projectDeleted: 'Projet supprimé',
  actionDeleted: 'Action supprimée',
  noProjectFound: 'Aucun projet trouvé...',
  loading: 'Loading...',
  newProject: 'Nouveau projet',
  clearAll: 'Clear All',
  createProjectChoice: 'Créer un projet',
  /** At the create form's line count (a negative, decimal or too large number is refused there). */
  projectLinesInvalid: (max: number) => `Nombre de lignes : nombre entier de 1 à ${max} attendu`,
  importEstimateChoice: 'Importer un devis',
  searchAdvertTitle: 'Associer une publicité',
  delayReasonTitle: 'Raison du retard',
  intermediateFeedbackTitle: 'Date de feedbacks intermédiaire',
  confirm: 'Confirmer',
  confirmDeleteProject: 'Supprimer le projet et ses actions ?',
  confirmCancelAction: "Annuler l'action ?",
  filterPlaceholder: 'Filtrer...',
  selectAll: 'Select All',
  resultsLimited: 'Résultats limités à 15 items',
  noResult: 'Aucun résultat',
  allCsm: 'Tous',
  ascending: 'Ascending',
  descending: 'Descending',
  // Server answers of this issue (not quoted by the spec).
  projectNotFound: 'Projet introuvable',
  targetNotFound: 'Action introuvable',
  commentNotFound: 'Commentaire introuvable',
  briefingNotFound: 'Briefing introuvable',
  briefingExists: 'Ce projet a déjà un briefing',
  notCommentAuthor: "Seul l'auteur d'un commentaire peut le modifier ou le supprimer",
  unknownCsm: "Ce CSM n'existe pas",
  actionCodeTaken: 'Ce code action existe déjà dans ce projet',
  estimateFileInvalid: 'Fichier de devis invalide',
  estimateFileMissingColumns: 'Colonnes manquantes dans le fichier de devis : ',
  estimateSourceFailed: "L'outil de facturation ne répond pas",
  /** A bad cell of the quote export: 'Fichier de devis invalide (ligne 7) — Quantité : nombre attendu'. */
  estimateRowInvalid: (line: number, column: string, reason: string) => `Fichier de devis invalide (ligne ${line}) — ${column} : ${reason}`,
  estimateQuoteNumberExpected: 'numéro de devis attendu (DEV-…)',
  estimateNumberExpected: 'nombre attendu',
  estimateNumberTooLarge: (max: number) => `${max.toLocaleString('fr-FR')} au plus (en valeur absolue)`,
  estimateLineTotalTooLarge: (max: number) => `montant de la ligne trop grand (${max.toLocaleString('fr-FR')} au plus)`,
  estimateDateInvalid: 'date inexistante (JJ/MM/AAAA ou AAAA-MM-JJ attendu)',
  estimateDateOutOfRange: (from: number, to: number) => `date entre ${from} et ${to} attendue`,
  positionOutOfRange: 'Position hors du projet',
  // The quote export file, imported by an administrator from the projects list (docs/projects.md, Quotes).
  estimateFileButton: 'Importer les devis',
  estimateFileTitle: "Importer l'export des devis",
  estimateFileHelp:
    "Le fichier CSV exporté de l'outil de facturation : une ligne par ligne de devis, avec les colonnes Numéro de devis, Client, Libellé, Quantité, Prix unitaire HT et, si connue, Date de signature. Chaque devis du fichier remplace ses lignes déjà importées ; une cellule invalide refuse tout le fichier.",
  estimateFileChoose: 'Choisir le fichier…',
  estimateFileImporting: 'Import des devis',
  estimateFileTooLong: (max: number) => `Fichier de devis trop long : ${max.toLocaleString('fr-FR')} caractères au plus`,
  /** '3 devis importés (8 lignes) depuis devis.csv'. */
  estimateFileImported: (quotes: number, lines: number, fileName: string) =>
    `${quotes.toLocaleString('fr-FR')} devis importé${quotes > 1 ? 's' : ''} (${lines.toLocaleString('fr-FR')} ligne${lines > 1 ? 's' : ''}) depuis ${fileName}`,
  // The advert ↔ target link (docs/projects.md, Targets).
  advertNotFound: "Cette publicité n'existe pas ou a été supprimée",
  advertLinkedElsewhere: (actionCode: string) => `Cette publicité est déjà associée à l'action ${actionCode}`,
  /** A typed advert id of another type than the action's (the 'Associer une publicité' mapping). */
  advertWrongType: (targetType: string, wanted: string, advertType: string | null) =>
    `Une action ${targetType} s'associe à une publicité de type ${wanted} : celle-ci est de type ${advertType ?? 'inconnu'}`,
  targetHasAdvert: (advertId: number) => `Cette action est déjà associée à la publicité ${advertId}`,
  // What is wrong with a value typed into a grid cell, shown at the cell until corrected (docs/projects.md, The grid).
  cellWholeNumberExpected: 'Nombre entier attendu (ex. 12 500)',
  cellAmountExpected: 'Montant attendu (ex. 12 500,50 €)',
  cellDateExpected: 'Date attendue au format JJ/MM/AAAA (ex. 31/01/2026)',
  cellDateInvalid: (text: string) => `La date ${text} n'existe pas`,
  cellDateOutOfRange: 'Date entre 1970 et 2099 attendue',
  cellGoalWholeNumber: 'Les vues, jours et envois sont des nombres entiers (seuls les mois acceptent une décimale : 1,5 mois)',
  cellChoiceExpected: (choices: string) => `Valeur attendue parmi : ${choices}`,
  cellIdExpected: 'Numéro de publicité ou d’outil attendu (ex. 42)',
  cellEditLink: 'Modifier le lien',
  /** Under the briefing's link field while the address is not one it keeps (javascript:, data:, a bare word…). */
  briefingLinkRefused: 'Lien refusé : seules les adresses http://, https:// et mailto: sont acceptées',
  endBeforeStart: (start: string) => `La date de fin ne peut pas être avant la date de début (${start})`,
  startAfterEnd: (end: string) => `La date de début ne peut pas être après la date de fin (${end})`,
  negativeRevenue: 'Le CA ne peut pas être négatif',
  actionCodeRequired: 'Le code action est obligatoire',
  /** 'Nom du projet : champ obligatoire' under the emptied header field. */
  headerRequired: (label: string) => `${label} : champ obligatoire`,
  /** The server's wording of the same limit (messages/validation.ts), said at the field. */
  headerTooLong: (label: string, max: number) => `${label} : ${max} caractères au plus`,
  pasteNotSaved: 'Non enregistré : une autre cellule du collage est refusée',
  cellTooLong: (max: number) => `${max.toLocaleString('fr-FR')} caractères au plus`,
  cellAmountTooLarge: (max: number) => `Montant trop grand : ${max.toLocaleString('fr-FR')} € au plus`,
} as const;

export const PROJECT_NOTICES = {
  creationFailed: notice(PROJECT_MESSAGES.creationFailed, 'error', 2000),
  estimateNotFoundOnCreate: notice(PROJECT_MESSAGES.estimateNotFound, 'warning', 2000),
  estimateNotFoundOnImport: notice(PROJECT_MESSAGES.estimateNotFound, 'error', 2000),
  estimateImported: notice(PROJECT_MESSAGES.estimateImported, 'success', 3000),
  /** Create, import and availability failures show the server's errorMsg with this kind and duration. */
  serverFailure: notice('', 'error', 3000),
  advertDetached: notice(PROJECT_MESSAGES.advertDetached, 'success', 3500),
  actionsCopied: notice(PROJECT_MESSAGES.actionsCopied, 'info', 2000),
  actionsCopyFailed: notice(PROJECT_MESSAGES.actionsCopyFailed, 'error', 2000),
  cellCopied: notice(PROJECT_MESSAGES.cellCopied, 'info', 1000),
  projectDeleted: notice(PROJECT_MESSAGES.projectDeleted, 'info', 3000),
  actionDeleted: notice(PROJECT_MESSAGES.actionDeleted, 'info', 3000),
  deleteCommentFailed: notice('', 'error', 3000),
} as const;
