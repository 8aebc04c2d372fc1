import { notice } from './notice';

/**
 * The About page's diagnostics, the updater's questions and the settings of both (not in the spec: texts of the
 * desktop app's staff install).
 */
export const DIAGNOSTICS_MESSAGES = {
  copy: 'Copier les informations de diagnostic',
  copied: 'Informations de diagnostic copiées',
  copyFailed: 'Impossible de copier les informations de diagnostic',
  logsTitle: 'Journaux',
  /** The web host started without a log folder (tests, `startWebHost` without `logDir`). */
  logsOnConsole: 'Journaux écrits sur la sortie du serveur web (pas de fichier)',
  invalidUpdateUrl: "L'adresse des mises à jour doit commencer par https:// (ou s3://seau/dossier)",
  invalidCrashReportUrl: "L'adresse des rapports de plantage doit commencer par https://",
} as const;

export const UPDATE_MESSAGES = {
  readyTitle: 'Mise à jour',
  ready: 'Une mise à jour est prête',
  readyDetail: (version: string) => `La version ${version} a été téléchargée. Elle sera installée au redémarrage de l'application.`,
  restartNow: 'Redémarrer maintenant',
  later: 'Plus tard',
  /** The About page's part on updates: the feed, the channel, the last check. */
  feedTitle: 'Flux de mises à jour',
  noFeed: 'Aucun (pas de mise à jour automatique)',
  channelTitle: 'Canal de mises à jour',
  channels: { stable: 'Stable', beta: 'Bêta' },
  lastCheckTitle: 'Dernière vérification',
  notCheckedYet: 'Pas encore depuis le démarrage',
  notInstalled: "Aucune : l'application n'est pas installée (lancement de développement)",
  browser: 'Aucune : la version navigateur ne se met pas à jour seule, elle suit le serveur qui la sert',
  outcomes: {
    disabled: 'aucun flux configuré',
    'up-to-date': 'à jour',
    later: 'mise à jour téléchargée, installée à la fermeture',
    restarting: 'redémarrage pour installer la mise à jour',
    failed: 'échec, détails dans les journaux',
  },
  lastCheck: (when: string, outcome: string) => `${when} — ${outcome}`,
} as const;

export const DIAGNOSTICS_NOTICES = {
  copied: notice(DIAGNOSTICS_MESSAGES.copied, 'success'),
  copyFailed: notice(DIAGNOSTICS_MESSAGES.copyFailed, 'error'),
} as const;
