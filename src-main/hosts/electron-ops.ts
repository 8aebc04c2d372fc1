import { join } from 'node:path';
import { app, crashReporter, dialog, type BrowserWindow } from 'electron';
import electronUpdater from 'electron-updater';
import type { Logger } from 'pino';
import { UPDATE_MESSAGES } from '@shared/messages/diagnostics';
import { crashReporterOptions } from '../services/crash-reports';
import { createRollingLog, type RollingLog } from '../services/logs';
import type { SettingsStore } from '../services/settings';
import { startUpdatePolicy, type UpdatePolicy } from '../services/updates';

/**
 * What a staff install needs beside the window: log files, crash dumps, updates. The decisions live in
 * services/ (logs, crash-reports, updates) and are tested there; this file only hands them Electron's parts.
 */

/** The folder of the log files: the main process's (main.N.log) and the embedded API's (server.N.log). */
export function logFolder(): string {
  return join(app.getPath('userData'), 'logs');
}

export async function startMainLog(): Promise<RollingLog> {
  const log = await createRollingLog({ dir: logFolder(), name: 'main' });
  log.logger.info({ version: app.getVersion(), electron: process.versions.electron, platform: process.platform }, 'app started');
  // Crashed or killed processes: the minidump is in crashDumps, the reason here.
  app.on('render-process-gone', (_event, _contents, details) => log.logger.error({ details }, 'renderer process gone'));
  app.on('child-process-gone', (_event, details) => log.logger.error({ details }, 'child process gone'));
  app.on('will-quit', () => log.close());
  return log;
}

/** Minidumps always written locally; uploaded only when the settings name a crash report server. */
export function startCrashReporter(settings: SettingsStore): void {
  crashReporter.start(crashReporterOptions({ crashReportUrl: settings.get().crashReportUrl, productName: 'Back-office', version: app.getVersion() }));
}

/**
 * Updates from the feed and channel of the settings (`updateUrl`, `updateChannel`), for an installed app only: at start, then every 4 hours,
 * downloaded in the background, installed on «Redémarrer maintenant» or when the app quits.
 */
export function startUpdates(settings: SettingsStore, logger: Logger, window: () => BrowserWindow | null): UpdatePolicy | null {
  if (!app.isPackaged) {
    logger.info('updates: not an installed app, no update check');
    return null;
  }
  const { autoUpdater } = electronUpdater;
  autoUpdater.logger = { info: (m) => logger.info(String(m)), warn: (m) => logger.warn(String(m)), error: (m) => logger.error(String(m)) };
  return startUpdatePolicy({
    updater: autoUpdater,
    currentVersion: app.getVersion(),
    updateUrl: () => settings.get().updateUrl,
    updateChannel: () => settings.get().updateChannel,
    log: { info: (m) => logger.info(m), warn: (m) => logger.warn(m) },
    async ask(version) {
      const options = {
        type: 'info' as const,
        title: UPDATE_MESSAGES.readyTitle,
        message: UPDATE_MESSAGES.ready,
        detail: UPDATE_MESSAGES.readyDetail(version),
        buttons: [UPDATE_MESSAGES.restartNow, UPDATE_MESSAGES.later],
        defaultId: 0,
        cancelId: 1,
        noLink: true,
      };
      const owner = window();
      const answer = owner ? await dialog.showMessageBox(owner, options) : await dialog.showMessageBox(options);
      return answer.response === 0;
    },
  });
}
