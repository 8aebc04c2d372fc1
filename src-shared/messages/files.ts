/** CSV exports and imports through the main process (not quoted by the spec, except where marked). */
export const EXPORT_MESSAGES = {
  exporting: 'Export en cours…',
  exported: (rows: number, file: string) => `${rows.toLocaleString('fr-FR')} ligne${rows > 1 ? 's' : ''} exportée${rows > 1 ? 's' : ''} dans ${file}`,
  cancelled: 'Export annulé',
  notAList: 'Cette opération ne peut pas être exportée',
} as const;

export const IMPORT_MESSAGES = {
  fileForgotten: 'Fichier oublié : choisissez-le à nouveau',
  missingColumn: (column: string) => `Le fichier ne contient pas de colonne « ${column} »`,
  blankValue: (column: string) => `valeur vide dans la colonne « ${column} »`,
  /** A value not of the column's format (an e-mail list: 'adresse e-mail invalide : « jean.dupont@ »'). */
  badValue: (format: 'email', value: string) => `${format === 'email' ? 'adresse e-mail invalide' : 'valeur invalide'} : « ${value} »`,
  cancelled: 'Import annulé',
  tooManyRows: (max: number, found: number) => `Au plus ${max} lignes par import (${found} dans le fichier)`,
} as const;
