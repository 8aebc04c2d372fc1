/**
 * Pure security settings of the Electron window and the app's URL rules, kept apart from `electron` so they are
 * unit-tested under plain Node. The Electron host and the web host both use the same CSP.
 */

/** The renderer's own origin: served by the app:// protocol, never file://. */
export const APP_ORIGIN = 'app://renderer';
export const DEEP_LINK_SCHEME = 'backoffice';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Style sheets and <style> elements: our own files only. Inline style attributes (React's style prop, the
  // toasts' progress bar) stay allowed: they cannot load anything.
  "style-src 'self'",
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface WindowBoundsLike {
  x?: number;
  y?: number;
  width: number;
  height: number;
}

export function buildWindowOptions(input: { preloadPath: string; bounds?: WindowBoundsLike | null; isPackaged: boolean }) {
  const bounds = input.bounds ?? { width: 1440, height: 900 };
  return {
    ...bounds,
    minWidth: 1024,
    minHeight: 640,
    show: false,
    title: 'Back-office',
    backgroundColor: '#f6f7f9',
    autoHideMenuBar: false,
    webPreferences: {
      preload: input.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: true,
      // An installed app has no DevTools, whatever its environment says: they would read the page's state.
      devTools: !input.isPackaged,
    },
  } as const;
}

/** Only the app's own pages may be loaded in the window. */
export function isAllowedNavigation(url: string): boolean {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}` === APP_ORIGIN;
  } catch {
    return false;
  }
}

/** Redirects and frame navigations follow the same rule as navigations: the app's own pages only. */
export const isAllowedRedirect = isAllowedNavigation;

/**
 * A frame may only show the app's own pages; the app has no frames of its own, so any other frame navigation
 * (an injected iframe) is refused.
 */
export function isAllowedFrameNavigation(url: string, isMainFrame: boolean): boolean {
  return isMainFrame && isAllowedNavigation(url);
}

/** backoffice://app/password/confirm?confirmationToken=x → '/password/confirm?confirmationToken=x'; other links → null. */
export function routeFromDeepLink(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== `${DEEP_LINK_SCHEME}:` || parsed.host !== 'app') return null;
    if (parsed.pathname !== '/password/confirm') return null;
    const token = parsed.searchParams.get('confirmationToken');
    if (!token || !/^[A-Za-z0-9_-]{1,512}$/.test(token)) return null;
    return `/password/confirm?confirmationToken=${token}`;
  } catch {
    return null;
  }
}

/**
 * Permission requests (camera, notifications, geolocation, reading the clipboard...) are all refused, but writing
 * text to the clipboard: the page's "copy" buttons (a deeplink, the targets, the About page's diagnostics) use
 * navigator.clipboard.writeText, which Electron asks as 'clipboard-sanitized-write' (a browser allows it after a
 * user gesture without asking). Reading stays refused.
 */
export function isPermissionAllowed(permission: string): boolean {
  return permission === 'clipboard-sanitized-write';
}
