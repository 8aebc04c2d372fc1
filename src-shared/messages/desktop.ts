/** The desktop client's own situations (main process, IPC, files); not in the spec. */
export const DESKTOP_MESSAGES = {
  networkUnreachable: 'Serveur injoignable, vérifiez votre connexion',
  networkTimeout: 'Le serveur ne répond pas (délai dépassé)',
  embeddedServerFailed: "Le serveur intégré n'a pas pu démarrer",
  sessionExpired: 'Votre session a expiré, veuillez vous reconnecter',
  sessionNotPersistent: 'Aucun trousseau disponible : votre session ne survivra pas à un redémarrage',
  invalidIpcCall: 'Appel invalide',
  unknownChannel: 'canal inconnu',
  unexpectedAnswer: 'Réponse inattendue du serveur',
  csvOnly: 'Seuls les fichiers .csv sont acceptés',
  csvUnreadable: 'Fichier CSV illisible',
  fileSaved: 'Fichier enregistré',
  invalidServerUrl: "L'adresse du serveur doit commencer par https:// (http:// seulement pour un serveur sur cette machine)",
  invalidLinkUrl: "L'adresse du lien doit commencer par http:// ou https://",
  /** A link that is neither an external tool of the settings nor the product's own: the user says yes first. */
  confirmOpenLink: 'Ouvrir ce lien dans le navigateur ?',
  confirmOpenLinkAccept: 'Ouvrir',
  confirmOpenLinkCancel: 'Annuler',
  /**
   * Local drafts kept by main (docs/architecture.md, "Versions and conflicts"): what a refused draft says. The two
   * a payload check gives keep to letters and spaces, so the validation wording passes them on as they are.
   */
  draftTooLarge: 'Brouillon trop volumineux pour être conservé sur ce poste',
  draftsFull: 'Trop de brouillons conservés sur ce poste : enregistrez ou supprimez les anciens pour en garder un nouveau',
  draftHoldsSecret: 'Un brouillon ne peut pas contenir de jeton de session',
  draftRecordKey: 'Clé de brouillon invalide',
  draftsNotKept: 'Cet hôte ne conserve pas les brouillons : ils restent dans le navigateur',
} as const;
