/** Who sent an IPC message, as Electron reports it. */
export interface SenderFacts {
  webContentsId: number;
  isMainFrame: boolean;
  /** URL of the sending frame; undefined when the frame is gone. */
  frameUrl: string | undefined;
}

/**
 * Only our own window's main frame, showing our own origin, may call main. An injected iframe, another window or
 * a page navigated elsewhere is refused.
 */
export function isTrustedSender(sender: SenderFacts, expected: { webContentsId: number; origin: string }): boolean {
  if (sender.webContentsId !== expected.webContentsId || !sender.isMainFrame || !sender.frameUrl) return false;
  try {
    const url = new URL(sender.frameUrl);
    return `${url.protocol}//${url.host}` === expected.origin;
  } catch {
    return false;
  }
}
