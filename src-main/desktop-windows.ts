import { UNSAVED_CHANGES_MESSAGES } from '@shared/messages/unsaved-changes';
import { APP_ORIGIN } from './window-options';

/**
 * What the desktop host does where a browser would do it alone, decided without Electron so that it is tested
 * as plain code (hosts/electron.ts only wires it): downloads the page starts, the question before a window with
 * unsaved changes closes, and where a second app window opens.
 */

export type DownloadDecision = { action: 'save'; defaultName: string } | { action: 'cancel' };

const MEDIA_PATH = '/cdn/';
/** Characters no file name may hold on Windows or macOS, and control characters. */
const UNSAFE_NAME = /[<>:"/\\|?*\p{Cc}]/gu;

/**
 * A download reaches Electron's session ('will-download') when the page follows a link with `download` (the BAT
 * screenshot library's "Télécharger") or the web bridge's blob: link. The app's own media (app://renderer/cdn/…)
 * and blobs the page made are saved, through the native save dialog with the suggested name made safe; a
 * download from anywhere else (an address the page could not load anyway) is cancelled.
 */
export function decideDownload(url: string, suggestedName: string): DownloadDecision {
  const link = URL.parse(url);
  if (!link) return { action: 'cancel' };
  const fromApp =
    (link.protocol === 'blob:' && link.pathname.startsWith(`${APP_ORIGIN}/`)) ||
    (`${link.protocol}//${link.host}` === APP_ORIGIN && link.pathname.replaceAll('\\', '/').startsWith(MEDIA_PATH));
  if (!fromApp) return { action: 'cancel' };
  return { action: 'save', defaultName: safeFileName(suggestedName, link) };
}

function safeFileName(suggested: string, link: URL): string {
  const clean = (name: string) =>
    name
      .replace(UNSAFE_NAME, '_')
      .replace(/^[.\s]+|[.\s]+$/g, '')
      .slice(0, 200);
  const fromPath = URL.parse(`https://x.invalid${link.pathname}`)?.pathname.split('/').pop() ?? '';
  let decoded = fromPath;
  try {
    decoded = decodeURIComponent(fromPath);
  } catch {
    // A malformed escape: the name as written.
  }
  return clean(suggested) || clean(decoded) || 'fichier';
}

/**
 * The native question when an editor holds the page (beforeunload) and the window closes or reloads: the same
 * words as the in-app modal. Its answer `0` ('Quitter') lets the page go, anything else keeps it.
 */
export const unsavedChangesDialog = {
  type: 'question',
  title: UNSAVED_CHANGES_MESSAGES.leaveTitle,
  message: UNSAVED_CHANGES_MESSAGES.leaveQuestion,
  buttons: [UNSAVED_CHANGES_MESSAGES.leave, UNSAVED_CHANGES_MESSAGES.stay],
  defaultId: 1,
  cancelId: 1,
  noLink: true,
} as const;

export function leavesPage(answer: number): boolean {
  return answer === unsavedChangesDialog.buttons.indexOf(UNSAVED_CHANGES_MESSAGES.leave);
}

/** A second app window opens a little below and right of the window the link was in, the same size. */
export function secondWindowBounds(opener: { x: number; y: number; width: number; height: number } | null) {
  if (!opener) return null;
  return { x: opener.x + 32, y: opener.y + 32, width: opener.width, height: opener.height };
}
