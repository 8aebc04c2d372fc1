import { basename } from 'node:path';
import { dialog, type BrowserWindow } from 'electron';
import { MESSAGES, WORKPLACE_MESSAGES } from '@shared/messages';
import type { HostFiles } from '../services/host-files';
import { savePdfFile } from '../services/files';

/** The desktop app's native dialogs (questions main asks, the page can neither draw nor click; files), on its main window. */
let mainWindow: () => BrowserWindow | null = () => null;

export function setDialogOwner(owner: () => BrowserWindow | null): void {
  mainWindow = owner;
}

/** A native question before opening an external address; answers whether the user accepted. */
export async function confirmOpenLink(address: string): Promise<boolean> {
  const options = {
    type: 'question' as const,
    title: MESSAGES.confirmOpenLink,
    message: MESSAGES.confirmOpenLink,
    detail: address,
    buttons: [MESSAGES.confirmOpenLinkAccept, MESSAGES.confirmOpenLinkCancel],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
  };
  const answer = mainWindow() ? await dialog.showMessageBox(mainWindow()!, options) : await dialog.showMessageBox(options);
  return answer.response === 0;
}

/** Before the app connects to a team server the page named: a native question (the page cannot draw nor click it). */
export async function confirmServer(address: string): Promise<boolean> {
  const options = {
    type: 'question' as const,
    title: WORKPLACE_MESSAGES.confirmTitle,
    message: WORKPLACE_MESSAGES.confirmTitle,
    detail: WORKPLACE_MESSAGES.confirmDetail(address),
    buttons: [WORKPLACE_MESSAGES.confirmAccept, WORKPLACE_MESSAGES.confirmCancel],
    defaultId: 0,
    cancelId: 1,
    noLink: true,
  };
  const answer = mainWindow() ? await dialog.showMessageBox(mainWindow()!, options) : await dialog.showMessageBox(options);
  return answer.response === 0;
}

/** The files of the desktop app: native save and open dialogs. */
export function dialogFiles(): HostFiles {
  return {
    async exportDestination(defaultName) {
      const chosen = await dialog.showSaveDialog(mainWindow()!, {
        defaultPath: defaultName,
        filters: [{ name: MESSAGES.fileFilterCsv, extensions: ['csv'] }],
      });
      if (chosen.canceled || !chosen.filePath) return null;
      const path = chosen.filePath;
      // The export writes beside the chosen name and renames at the end: nothing to clean up here.
      return { path, finish: () => ({ savedAs: path }), abandon: () => undefined };
    },
    async pickCsv() {
      const picked = await dialog.showOpenDialog(mainWindow()!, {
        properties: ['openFile'],
        filters: [{ name: MESSAGES.fileFilterCsv, extensions: ['csv'] }],
      });
      const path = picked.filePaths[0];
      return picked.canceled || !path ? null : { path, fileName: basename(path), temporary: false };
    },
    async savePdf(defaultName, bytes) {
      const chosen = await dialog.showSaveDialog(mainWindow()!, {
        defaultPath: defaultName,
        filters: [{ name: MESSAGES.fileFilterPdf, extensions: ['pdf'] }],
      });
      if (chosen.canceled || !chosen.filePath) return null;
      await savePdfFile(chosen.filePath, bytes);
      return { savedAs: chosen.filePath };
    },
    async pickUpload({ formats }) {
      const picked = await dialog.showOpenDialog(mainWindow()!, {
        properties: ['openFile'],
        filters: [{ name: MESSAGES.fileFilterUpload, extensions: [...formats] }],
      });
      const path = picked.filePaths[0];
      return picked.canceled || !path ? null : { path, fileName: basename(path), temporary: false };
    },
  };
}
