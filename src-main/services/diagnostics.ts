import type { AppInfo, Settings } from '@shared/ipc';
import { DIAGNOSTICS_MESSAGES } from '@shared/messages/diagnostics';
import { lastLogLines, redactLine } from './logs';

/**
 * 'Copier les informations de diagnostic' of the About page: what support needs to read a problem (versions,
 * settings, the last log lines) and nothing that opens a session (no token, no password, no signed address).
 */

/** An address as support may read it: without credentials, query (signatures, tokens) or fragment. */
function publicAddress(value: string): string {
  if (!value) return '';
  const url = URL.parse(value);
  if (!url) return '[adresse illisible]';
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** The settings with every address reduced to publicAddress. */
export function publicSettings(settings: Settings): Record<string, string> {
  return {
    apiUrl: publicAddress(settings.apiUrl),
    environmentLabel: settings.environmentLabel,
    shortUrlServiceUrl: publicAddress(settings.shortUrlServiceUrl),
    appCreationToolUrl: publicAddress(settings.appCreationToolUrl),
    updateUrl: publicAddress(settings.updateUrl),
    updateChannel: settings.updateChannel,
    crashReportUrl: publicAddress(settings.crashReportUrl),
  };
}

export interface DiagnosticsSource {
  appInfo: AppInfo;
  settings: Settings;
  /** Versions of the runtime (Electron, Chromium, Node, OS), as the host knows them. */
  versions: Record<string, string | undefined>;
  /** The log folder, or null where the host writes no log file. */
  logDir: string | null;
  lineCount?: number;
  now?: Date;
}

/** The diagnostics text, as copied: plain lines a support ticket can hold. */
export async function collectDiagnostics(source: DiagnosticsSource): Promise<{ logDir: string; text: string }> {
  const lines = source.logDir ? await lastLogLines(source.logDir, source.lineCount ?? 200) : [];
  const info = source.appInfo;
  const text = [
    `Back-office ${info.version} (${info.host === 'electron' ? 'bureau' : 'navigateur'})`,
    `Date : ${(source.now ?? new Date()).toISOString()}`,
    ...Object.entries(source.versions)
      .filter(([, version]) => version)
      .map(([name, version]) => `${name} : ${version}`),
    `Serveur : ${publicAddress(info.apiUrl)} (${info.databaseKind}${info.demo ? ', démo' : ''})`,
    '',
    'Réglages :',
    ...Object.entries(publicSettings(source.settings)).map(([key, value]) => `  ${key} : ${value || '(vide)'}`),
    '',
    `${DIAGNOSTICS_MESSAGES.logsTitle} : ${source.logDir ?? DIAGNOSTICS_MESSAGES.logsOnConsole}`,
    ...lines,
  ].map(redactLine);
  return { logDir: source.logDir ?? '', text: `${text.join('\n')}\n` };
}
