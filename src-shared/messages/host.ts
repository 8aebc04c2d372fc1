/** Texts of the two hosts (desktop window and its menu, the browser version's start); not in the spec. */
export const HOST_MESSAGES = {
  invalidApiAddress: "Adresse d'API invalide",
  unknownHost: 'Hôte inconnu : ouvrez l’adresse affichée au démarrage',
  embeddedServerStopped: "Le serveur intégré s'est arrêté",
  menuFile: 'Fichier',
  menuQuit: 'Quitter',
  menuEdit: 'Édition',
  menuUndo: 'Annuler',
  menuRedo: 'Rétablir',
  menuCut: 'Couper',
  menuCopy: 'Copier',
  menuPaste: 'Coller',
  menuSelectAll: 'Tout sélectionner',
  menuView: 'Affichage',
  menuReload: 'Recharger',
  menuZoomIn: 'Zoom avant',
  menuZoomOut: 'Zoom arrière',
  menuActualSize: 'Taille réelle',
  menuFullScreen: 'Plein écran',
  menuHelp: 'Aide',
  menuAbout: 'À propos',
  fileFilterCsv: 'CSV',
  fileFilterUpload: 'Fichiers acceptés',
  fileFilterPdf: 'PDF',
  /**
   * About page of the browser version: its sessions are held by the web host, in memory, never in a keychain. Said
   * there once rather than at every sign-in (the desktop's keychain warning is no concern of a browser).
   */
  webSessionInMemory: 'Les sessions sont gardées en mémoire par le serveur web : son redémarrage vous déconnecte.',
} as const;
