import { notice } from './notice';

/** Uploads and the storage browser (adverts-articles.md §5, §8; audiences-projects-tools.md §4, §8). */
export const STORAGE_MESSAGES = {
  // Spec texts, letter for letter.
  imageImported: 'Image importé avec succès',
  imageDeleted: 'Image supprimée avec succès',
  fileDeleted: 'Fichier supprimé avec succès',
  tooLarge: 'Fichier trop volumineux. Taille maximale 10Mo',
  /** The spec's 'Invalid file type', in French as the toasts it appears in (docs/content.md, field labels). */
  invalidFileType: 'Type de fichier non autorisé',
  cannotDeletePreview: 'Vous ne pouvez pas supprimer une image en cours de prévisualisation',
  // Answers of this issue (not quoted by the spec).
  /** A document that is not an image uploaded: the spec's « Image importé » names images only; worded as its « Fichier supprimé avec succès ». */
  fileImported: 'Fichier importé avec succès',
  unsafeKey: 'Chemin de fichier invalide',
  outsideDocuments: 'Ce dossier ne fait pas partie des documents',
  fileNotFound: 'Fichier introuvable',
  multipartExpected: 'Envoyez le fichier en multipart/form-data',
  fileMissing: 'Aucun fichier envoyé',
  folderNameRequired: 'Le nom du dossier est requis',
  uploadCancelled: 'Envoi annulé',
  storageFailed: "Le stockage n'a pas pu enregistrer le fichier",
  libraryNotFound: 'Médiathèque introuvable',
  mediaNotInLibrary: "Ce média n'est pas dans la médiathèque",
  notProductMedia: 'Ce média ne vient pas du stockage du produit',
  /**
   * A library media that adverts still show (docs/content.md, media in use): 'Ce média est utilisé par 2 publicités : « Cardio »
   * (n° 12), « Derm » (n° 14).' — the first 10 named, then the count of the others.
   */
  mediaUsedByAdverts: (adverts: readonly { id: number; name: string }[], total: number) =>
    `Ce média est utilisé par ${total} publicité${total > 1 ? 's' : ''} : ${adverts.map((advert) => `« ${advert.name || 'Sans nom'} » (n° ${advert.id})`).join(', ')}${
      total > adverts.length ? ` et ${total - adverts.length} autre${total - adverts.length > 1 ? 's' : ''}` : ''
    }.`,
  /** The question after that list, in the media library: the delete goes on only once the user confirms. */
  deleteAnyway: 'Supprimer quand même ?',
  deleteAnywayConfirm: 'Supprimer quand même',
  keepMedia: 'Garder le média',
  /** A client document asked for without (or with a wrong) signed link: documents are not public (docs/security.md). */
  documentLinkRequired: "Ce document n'est accessible que par un lien du back-office",
  documentLinkExpired: 'Ce lien a expiré : rouvrez le dossier pour en obtenir un nouveau',
  // Storage browser screen.
  confirmDelete: (name: string) => `Supprimer le fichier ${name} ?`,
  emptyFolder: 'Ce dossier est vide',
  noPreview: 'Aperçu indisponible pour ce type de fichier',
  selectFile: 'Sélectionnez un fichier pour le prévisualiser',
  folderNameInvalid: 'Lettres, chiffres, espaces, - et _ uniquement',
} as const;

/** 'Format non autorisé: {list}, seulement.' (spec §5). */
export function formatNotAllowed(formats: readonly string[]): string {
  return `Format non autorisé: ${formats.join(', ')}, seulement.`;
}

/** The size refusal for a limit other than the spec's 10 MB (documents): same sentence, its own figure. */
export function tooLargeFor(maxBytes: number): string {
  const mb = Math.round(maxBytes / (1024 * 1024));
  return mb === 10 ? STORAGE_MESSAGES.tooLarge : `Fichier trop volumineux. Taille maximale ${mb}Mo`;
}

/** 'Une erreur est survenue: {detail}' (2500 ms on upload or delete failure, adverts §8). */
export function storageError(detail: string) {
  return notice(`Une erreur est survenue: ${detail}`, 'error', 2500);
}

export const STORAGE_NOTICES = {
  imageImported: notice(STORAGE_MESSAGES.imageImported, 'success'),
  fileImported: notice(STORAGE_MESSAGES.fileImported, 'success'),
  imageDeleted: notice(STORAGE_MESSAGES.imageDeleted, 'success'),
  fileDeleted: notice(STORAGE_MESSAGES.fileDeleted, 'success'),
  uploadCancelled: notice(STORAGE_MESSAGES.uploadCancelled, 'info'),
} as const;
