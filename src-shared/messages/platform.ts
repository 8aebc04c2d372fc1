import { DESKTOP_MESSAGES } from './desktop';
import { notice } from './notice';

/** Texts of platform.md §8 and situations around sign-in, the guard and the shell. "spec" ones are verbatim. */
export const PLATFORM_MESSAGES = {
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
  passwordBlank: "Le mot de passe ne peut pas être fait que d'espaces",
  mergeNotAvailable: "La fusion de comptes n'est pas disponible sur ce serveur",
  routeNotFound: 'Ressource introuvable',
  invalidField: 'Champ invalide',
  invalidJson: 'Corps de requête invalide (JSON attendu)',
  payloadTooLarge: 'Requête trop volumineuse',
  backToLogin: 'Retour à la connexion',
  // (docs/security.md) Per-address limit on reset requests, and the password-hashing queue full
  tooManyResetRequests: 'Trop de demandes de réinitialisation. Réessayez dans quelques minutes.',
  serverBusy: 'Le serveur est très sollicité. Réessayez dans quelques secondes.',
  databaseUnavailable: 'La base de données ne répond pas pour le moment. Réessayez dans quelques secondes.',
} as const;

/** Platform §8 notices: text with its toast kind and duration. */
export const PLATFORM_NOTICES = {
  resetAccepted: notice(PLATFORM_MESSAGES.resetAccepted, 'success'),
  resetFailed: notice(PLATFORM_MESSAGES.genericError, 'error'),
  /** Password confirm failed: the server's errorMsg, as an error. */
  passwordConfirmFailed: notice(PLATFORM_MESSAGES.genericError, 'error'),
  passwordChanged: notice(PLATFORM_MESSAGES.passwordChanged, 'success'),
  forbiddenWrite: notice(PLATFORM_MESSAGES.userNotAllowed, 'error', 3000),
  /** Admin store error: the store's error text, as an error toast. */
  storeError: notice(PLATFORM_MESSAGES.genericError, 'error'),
  invalidCredentials: notice(PLATFORM_MESSAGES.invalidCredentials, 'form'),
  cannotLogIn: notice(PLATFORM_MESSAGES.cannotLogIn, 'form'),
  /** Signed in, but no keychain: the session will not survive a restart (not in the spec). */
  sessionNotPersistent: notice(DESKTOP_MESSAGES.sessionNotPersistent, 'warning', 5000),
} as const;
