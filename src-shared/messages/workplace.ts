import { notice } from './notice';

/**
 * Where the app works (the team's server or this computer), the check of a team server's address, and the
 * settings file that could not be read (docs/desktop.md, "First start"). Not in the spec: texts of the staff install.
 */
export const WORKPLACE_MESSAGES = {
  title: 'Où souhaitez-vous travailler ?',
  intro: 'Choisissez le serveur de votre équipe pour partager annonces, audiences et projets, ou travaillez seul sur cet ordinateur.',
  teamServer: "Se connecter au serveur de l'équipe",
  teamServerAddress: 'Adresse du serveur',
  teamServerHint: 'Par exemple https://backoffice.mon-entreprise.fr',
  connect: 'Se connecter',
  checking: 'Vérification du serveur…',
  localComputer: 'Travailler sur cet ordinateur',
  localComputerHint: 'Les données restent sur ce poste ; vous créerez ensuite le compte administrateur.',
  changeServer: 'Changer de serveur',
  currentServer: (address: string) => `Serveur actuel : ${address}`,
  currentLocal: 'Serveur actuel : cet ordinateur',
  back: 'Retour',
  /** The checks of an address, as typed and then against the server. */
  addressRequired: "Saisissez l'adresse du serveur de votre équipe",
  addressInvalid: "Cette adresse n'est pas valide (exemple : https://backoffice.mon-entreprise.fr)",
  addressCredentials: "L'adresse ne doit contenir ni identifiant ni mot de passe",
  addressNotHttps: 'Le serveur doit être en https:// (http:// seulement pour un serveur sur cette machine)',
  unknownHost: (host: string) => `Serveur introuvable : « ${host} » n'existe pas (vérifiez l'adresse)`,
  certificateRefused: "Le certificat du serveur n'est pas valide : la connexion a été refusée",
  noAnswer: 'Le serveur ne répond pas (vérifiez l’adresse et votre connexion)',
  notThisProduct: "Ce serveur répond, mais ce n'est pas un serveur du back-office",
  versionTooOld: (version: number) => `Le serveur est trop ancien pour cette application (version d'API ${version}) : demandez sa mise à jour`,
  versionTooNew: (version: number) => `Le serveur est plus récent que cette application (version d'API ${version}) : mettez l'application à jour`,
  chooseFirst: "Choisissez d'abord où travailler : le serveur de l'équipe ou cet ordinateur",
  switchUnavailable: 'Le choix du serveur est fixé au lancement de cette application',
  confirmTitle: 'Changer de serveur',
  confirmDetail: (address: string) => `L'application se connectera à ${address}. Votre session actuelle sera fermée.`,
  confirmAccept: 'Se connecter',
  confirmCancel: 'Annuler',
  cancelled: 'Changement de serveur annulé',
  /** A settings file that could not be read: set aside, the app started on its defaults. */
  settingsSetAside: (copy: string) =>
    `Le fichier de réglages était illisible : l'application a démarré avec les réglages par défaut. Une copie du fichier a été mise de côté : ${copy}`,
  dismiss: 'Fermer',
  /** « Ouvrir le dossier des journaux » (About page). */
  openLogs: 'Ouvrir le dossier des journaux',
  openLogsFailed: (folder: string) => `Impossible d'ouvrir le dossier des journaux : ouvrez-le vous-même (${folder})`,
  noLogFolder: "Cette application n'écrit pas de fichier journal (journaux sur la sortie du serveur web)",
} as const;

export const WORKPLACE_NOTICES = {
  openLogsFailed: (folder: string) => notice(WORKPLACE_MESSAGES.openLogsFailed(folder), 'error', 8000),
  noLogFolder: notice(WORKPLACE_MESSAGES.noLogFolder, 'info', 5000),
  cancelled: notice(WORKPLACE_MESSAGES.cancelled, 'info'),
} as const;

/** Settings a machine policy fixed (registry, configuration profile, /etc file, environment): shown read-only. */
export const POLICY_MESSAGES = {
  title: 'Réglages fixés par votre service informatique',
  locked: (source: string) => `Ce réglage est fixé par votre service informatique (${source}) : il ne peut pas être modifié ici`,
  lockedEntry: (key: string, value: string, source: string) => `${key} : ${value || '(vide)'} — fixé par ${source}`,
} as const;
