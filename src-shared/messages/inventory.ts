import { notice } from './notice';

/** The view inventory (platform.md §2, §5, §8; docs/inventory.md). */
export const INVENTORY_MESSAGES = {
  // Spec texts, letter for letter.
  monthView: 'Vue Mensuelle',
  quarterView: 'Vue Trimestrielle',
  availableViews: '- vues disponibles',
  totalTooltip: 'Le total correspond aux vues des formats Post, Post vidéo et Quiz',
  specialty: 'Spécialité',
  emptyTitle: "Pas d'informations à afficher",
  emptyHint: "Merci d'importer un fichier .csv",
  importCsv: 'Importer CSV',
  processing: 'CSV en cours de traitement',
  uploaded: 'CSV uploadé avec succès',
  emptyFile: 'Le fichier est vide',
  invalidDates: 'Invalid dates',
  wrongDateFormat: 'Wrong format of dates, they should be formated like this: YY/MM (ex: 22/01)',
  missingColumns: 'Missing columns : ',
  availabilityTitle: 'Recherche de disponibilité',
  fillAllFields: 'Veuillez remplir tous les champs',
  startAfterEnd: 'La date de début ne peut-être suppérieur à la date de fin',
  noMoreInventory: "Plus d'inventaire disponible sur le/les moi(s) de ",
  alert: 'alert',
  // Texts of this issue (not quoted by the spec).
  exportCsv: 'Exporter CSV',
  availabilityButton: 'Recherche de disponibilité',
  startMonth: 'Mois de début',
  endMonth: 'Mois de fin',
  soldViews: 'Vues vendues',
  search: 'Rechercher',
  close: 'Fermer',
  remaining: 'Vues restantes',
  consumption: 'Consommation',
  unplanned: 'non planifié',
  consumers: 'Actions qui consomment ce mois',
  noConsumer: 'Aucune action ne consomme ce mois',
  allSpecialties: 'Toutes',
  previous: 'Période précédente',
  next: 'Période suivante',
  previousYear: 'Année précédente',
  nextYear: 'Année suivante',
  categoryColumn: 'Spécialité / profession',
  checkTitle: 'Inventaire',
  checkNoCategory: "Renseignez la spé, les dates et un objectif en vues pour vérifier l'inventaire",
  checkUnknownCategory: "Cette spé n'est pas dans l'inventaire",
  checkOk: 'Inventaire disponible',
  exportLabel: "Export de l'inventaire",
  /** Under the table when more categories than a page (INVENTORY_PAGE_SIZE) exist: the next page. */
  showMore: (shown: number, total: number) => `Afficher plus (${shown} sur ${total} catégories)`,
  // Server answers.
  unknownCategory: (line: number, column: string, value: string) => `Ligne ${line} : ${column} inconnue « ${value} »`,
  noCategory: (line: number) => `Ligne ${line} : Profession ou Specialty attendue`,
  noName: (line: number) => `Ligne ${line} : Nom attendu`,
  badViews: (line: number, column: string, value: string) => `Ligne ${line} : nombre de vues invalide « ${value} » (colonne ${column})`,
  duplicateCategory: (line: number, name: string) => `Ligne ${line} : « ${name} » figure déjà dans le fichier`,
  badEncoding: 'Encodage du fichier non reconnu (UTF-8 ou Windows-1252 attendus)',
  rangeTooLong: 'Période de 60 mois au plus',
} as const;

/** §8 'Sur cette période vous avez {n} vues de trop.' */
export const surplusMessage = (views: string): string => `Sur cette période vous avez ${views} vues de trop.`;

export const INVENTORY_NOTICES = {
  /** §8 'Inventory fetch failed': the response's errorMsg, error, 3 s (also the quarter modal's). */
  fetchFailed: notice('', 'error', 3000),
  emptyFile: notice(INVENTORY_MESSAGES.emptyFile, 'warning', 3000),
  /** §5: CSV problems, error, 4 s. */
  csvProblem: notice('', 'error', 4000),
  processing: notice(INVENTORY_MESSAGES.processing, 'info', 4000),
  uploaded: notice(INVENTORY_MESSAGES.uploaded, 'success', 3000),
  fillAllFields: notice(INVENTORY_MESSAGES.fillAllFields, 'error', 3000),
  startAfterEnd: notice(INVENTORY_MESSAGES.startAfterEnd, 'error', 3000),
} as const;
