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
  /** The page asked to change the API address: the desktop app asks its user to confirm. */
  confirmApiUrlTitle: "Changer de serveur d'API",
  confirmApiUrl: (address: string) => `Les appels de l'application, votre connexion comprise, iront désormais à ${address}. Vous devrez vous reconnecter.`,
  confirmApiUrlAccept: 'Changer de serveur',
  confirmApiUrlCancel: 'Annuler',
  embeddedServer: 'le serveur intégré à cette application',
  apiUrlChangeRefused: "Changement de serveur d'API annulé",
  /** A link that is neither an external tool of the settings nor the product's own: the user says yes first. */
  confirmOpenLink: 'Ouvrir ce lien dans le navigateur ?',
  confirmOpenLinkAccept: 'Ouvrir',
  confirmOpenLinkCancel: 'Annuler',
  /** Web host: the API address is set by whoever started it. */
  apiUrlFromHostOnly: "L'adresse du serveur d'API se règle dans le fichier de réglages ou par API_URL au démarrage",
} as const;
