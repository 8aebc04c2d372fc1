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
} as const;

export const DIAGNOSTICS_NOTICES = {
  copied: notice(DIAGNOSTICS_MESSAGES.copied, 'success'),
  copyFailed: notice(DIAGNOSTICS_MESSAGES.copyFailed, 'error'),
} as const;
