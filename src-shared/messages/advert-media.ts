import { notice } from './notice';

/**
 * Upload texts of the advert and story editors and of the media library (adverts-articles.md §5, §8; platform.md
 * global media library). Spec texts letter for letter ("N'erreur est survenue" included); others marked.
 */
export const ADVERT_MEDIA_MESSAGES = {
  // §8 info
  uploadingImage: "Upload de l'image...",
  uploadingLogo: 'Upload du logo...',
  // §8 success
  imageSaved: 'Image enregistrée.',
  logoSaved: 'Logo enregistré.',
  storyLogoSaved: 'Logo enregistré',
  storyMediaSaved: 'Image ou video enregistrée',
  imagesRemoved: 'Les images ont bien été retirées',
  mediaUploaded: 'Media uploadé avec succès',
  mediaDeleted: 'Media supprimé avec succès',
  bannerSaved: 'Bannière enregistrée',
  // §8 error: the sentence, then the error's text
  imageSaveFailed: (error: string) => `N'erreur est survenue lors de l'enregistrement de l'image. ${error}`.trim(),
  logoSaveFailed: (error: string) => `N'erreur est survenue lors de l'enregistrement du logo. ${error}`.trim(),
  // §8 warning: pre-filled media that cannot be uploaded
  prefillImageNotUploadable: "L'image de ce site ne peut être uploadée",
  prefillLogoNotUploadable: 'Le logo de ce site ne peut être uploadé',
  // §5
  cannotDeletePreview: 'Vous ne pouvez pas supprimer une image en cours de prévisualisation',
  tooLarge: 'Fichier trop volumineux. Taille maximale 10Mo',

  // not in the spec
  uploadingVideo: 'Upload de la vidéo...',
  videoSaved: 'Vidéo enregistrée.',
  videoSaveFailed: (error: string) => `N'erreur est survenue lors de l'enregistrement de la vidéo. ${error}`.trim(),
  libraryTitle: 'Médiathèque',
  libraryEmpty: 'Aucun média dans la médiathèque',
  libraryLoading: 'Chargement des médias...',
  libraryUpload: 'Uploader un média',
  libraryOpen: 'Médiathèque',
  pick: 'Choisir',
  delete: 'Supprimer',
  close: 'Fermer',
  uploadLogo: 'Uploader un logo',
  uploadImage: 'Uploader une image',
  uploadVideo: 'Uploader une vidéo',
  uploadBanner: 'Uploader la bannière',
  banner: 'Bannière',
  uploadingBanner: 'Upload de la bannière...',
  bannerSaveFailed: (error: string) => `La bannière n'a pas pu être enregistrée. ${error}`.trim(),
  editImage: 'Recadrer et uploader une image',
  removeImage: "Retirer l'image",
  removeImages: 'Retirer toutes les images',
  saveToUpload: 'Enregistrez la publicité pour uploader des visuels',
  imageEditorTitle: "Éditeur d'image",
  imageEditorChoose: 'Choisir une image',
  imageEditorWidth: 'Largeur (px)',
  imageEditorHeight: 'Hauteur (px)',
  imageEditorUpload: 'Recadrer et uploader',
  imageEditorNoImage: "L'image n'a pas pu être lue",
} as const;

const M = ADVERT_MEDIA_MESSAGES;

/** §8 durations where the spec gives them; the toaster's 3 s otherwise. */
export const ADVERT_MEDIA_NOTICES = {
  uploadingImage: notice(M.uploadingImage, 'info'),
  uploadingLogo: notice(M.uploadingLogo, 'info'),
  uploadingVideo: notice(M.uploadingVideo, 'info'),
  imageSaved: notice(M.imageSaved, 'success', 1400),
  logoSaved: notice(M.logoSaved, 'success', 1400),
  videoSaved: notice(M.videoSaved, 'success', 1400),
  storyLogoSaved: notice(M.storyLogoSaved, 'success', 1300),
  storyMediaSaved: notice(M.storyMediaSaved, 'success', 1300),
  imagesRemoved: notice(M.imagesRemoved, 'success', 3000),
  mediaUploaded: notice(M.mediaUploaded, 'success'),
  mediaDeleted: notice(M.mediaDeleted, 'success'),
  uploadingBanner: notice(M.uploadingBanner, 'info'),
  bannerSaved: notice(M.bannerSaved, 'success', 1400),
  bannerSaveFailed: (error: string) => notice(M.bannerSaveFailed(error), 'error', 2800),
  imageSaveFailed: (error: string) => notice(M.imageSaveFailed(error), 'error', 2800),
  logoSaveFailed: (error: string) => notice(M.logoSaveFailed(error), 'error', 1400),
  videoSaveFailed: (error: string) => notice(M.videoSaveFailed(error), 'error', 2800),
  prefillImageNotUploadable: notice(M.prefillImageNotUploadable, 'warning'),
  prefillLogoNotUploadable: notice(M.prefillLogoNotUploadable, 'warning'),
  cannotDeletePreview: notice(M.cannotDeletePreview, 'warning'),
  tooLarge: notice(M.tooLarge, 'error', 2500),
} as const;
