/**
 * User-facing texts. Those marked "spec" are quoted from shared/spec and must stay letter for letter;
 * the others cover situations the spec is silent on, in the product's language.
 */
export const MESSAGES = {
  // spec §8
  invalidCredentials: 'Invalid credentials',
  cannotLogIn: 'Cannot log in',
  resetAccepted: 'Si cet e-mail est reconnu vous allez recevoir un lien pour réinitialiser votre mot de passe',
  genericError: 'Une erreur est survenue',
  passwordChanged: 'Mot de passe modifié avec succès',
  userNotAllowed: 'User not allowed',
  accessDenied: 'Access denied (403)',
  loadingChunkFailed: 'Loading chunk failed',
  confirmLogout: 'Voulez-vous fermer votre session?',
  confirmDelete: 'It cannot be undone, are you sure?',
  // spec §5
  invalidConfirmationToken: 'Invalid confirmation token',

  // not in the spec
  authenticationRequired: 'Authentification requise',
  invalidToken: 'Jeton invalide ou expiré',
  invalidRefreshToken: 'Session expirée, veuillez vous reconnecter',
  tooManyAttempts: 'Trop de tentatives de connexion. Réessayez dans quelques minutes.',
  passwordTooShort: 'Le mot de passe doit contenir au moins 8 caractères',
  passwordTooLong: 'Le mot de passe ne peut pas dépasser 1024 caractères',
  passwordTooCommon: 'Ce mot de passe est trop courant, choisissez-en un autre',
  emailAlreadyUsed: 'Un compte utilise déjà cet e-mail',
  accountNotFound: 'Compte introuvable',
  cannotRemoveOwnAdmin: 'Vous ne pouvez pas retirer le rôle ADMIN de votre propre compte',
  cannotDeleteAdmin: 'Un compte ADMIN ne peut pas être supprimé',
  mergeNotAvailable: "La fusion de comptes n'est pas disponible sur ce serveur",
  routeNotFound: 'Ressource introuvable',
  invalidField: 'Champ invalide',
  invalidJson: 'Corps de requête invalide (JSON attendu)',
  payloadTooLarge: 'Requête trop volumineuse',

  // desktop client (main process, IPC)
  networkUnreachable: 'Serveur injoignable, vérifiez votre connexion',
  networkTimeout: 'Le serveur ne répond pas (délai dépassé)',
  embeddedServerFailed: "Le serveur intégré n'a pas pu démarrer",
  sessionExpired: 'Votre session a expiré, veuillez vous reconnecter',
  sessionNotPersistent: 'Aucun trousseau disponible : votre session ne survivra pas à un redémarrage',
  invalidIpcCall: 'Appel invalide',
  csvOnly: 'Seuls les fichiers .csv sont acceptés',
  csvUnreadable: 'Fichier CSV illisible',
  fileSaved: 'Fichier enregistré',
} as const;

export type MessageKey = keyof typeof MESSAGES;
