/** First start of the desktop app: creating the administrator account (not quoted by the spec). */
export const SETUP_MESSAGES = {
  title: 'Créer le compte administrateur',
  intro: "Première ouverture de l'application : choisissez le compte qui administrera cet espace de travail.",
  submit: 'Créer le compte',
  passwordConfirmation: 'Confirmer le mot de passe',
  passwordsDiffer: 'Les deux mots de passe ne sont pas identiques',
  unavailable: "La configuration initiale n'est pas disponible sur ce serveur",
  badSetupToken: 'Jeton de configuration invalide',
  alreadyDone: 'Le compte administrateur existe déjà : connectez-vous',
  demoBanner: 'Espace de démonstration : comptes et mots de passe publics, ne saisissez pas de données réelles.',
} as const;
