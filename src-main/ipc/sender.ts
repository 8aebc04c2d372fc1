/** Who sent an IPC message, as Electron reports it. */
export interface SenderFacts {
  webContentsId: number;
  isMainFrame: boolean;
  /** URL of the sending frame; undefined when the frame is gone. */
  frameUrl: string | undefined;
}

/**
 * Only the main frame of one of our own windows (the main one, or a second one an in-app link opened), showing
 * our own origin, may call main. An injected iframe, any other web contents or a page navigated elsewhere is
 * refused.
 */
export function isTrustedSender(sender: SenderFacts, expected: { webContentsIds: ReadonlySet<number>; origin: string }): boolean {
  if (!expected.webContentsIds.has(sender.webContentsId) || !sender.isMainFrame || !sender.frameUrl) return false;
  try {
    const url = new URL(sender.frameUrl);
    return `${url.protocol}//${url.host}` === expected.origin;
  } catch {
    return false;
  }
}
