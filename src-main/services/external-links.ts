/**
 * Which links the desktop app hands to the user's browser (shell.openExternal), decided here without Electron so
 * it is tested as plain code; hosts/electron.ts only wires it to the window-open handler, a dialog and the shell.
 *
 * What the renderer opens in a new window (target="_blank", window.open):
 * - the external tools of the top navigation, at the addresses of the settings (shortUrlServiceUrl,
 *   appCreationToolUrl; an administrator chose them, possibly an intranet http address): opened;
 * - the product's stored media and documents (`/cdn/…`: storage browser "Ouvrir", BAT screenshots), which on
 *   app://renderer are passed through to the API: opened at the API's own address, the same path and query (a
 *   document's signed, expiring URL stays valid there);
 * - in-app routes (the targets grid's advert link `/adverts/edit/5`, the advert list's audience tags): not for the
 *   browser; they open in a second app window (same session and security options, its own history), as the
 *   spec's "new tab" does on the web;
 * - links written by people (an advert's source, the links of a briefing): any other https link, opened only
 *   once the user confirmed it in a native dialog showing the address.
 * Everything else is refused: http outside the tools, mailto: (some mail clients take attachments from it),
 * file:, javascript:, data:, custom schemes, and links carrying credentials.
 */
export type ExternalLinkDecision =
  | { action: 'open'; url: string }
  | { action: 'ask'; url: string }
  /** An in-app route (path, query and fragment) for a second app window. */
  | { action: 'app-window'; path: string }
  | { action: 'refuse' };

export interface ExternalLinkContext {
  /** The external tools' addresses from the settings; empty ones are ignored. */
  tools: readonly string[];
  /** The origin the renderer is served from (app://renderer). */
  appOrigin: string;
  /** The API in use (team server or embedded), or null when not known: where `/cdn/…` media live. */
  apiBase: string | null;
}

const MEDIA_PATH = '/cdn/';

function isConfiguredTool(link: URL, tools: readonly string[]): boolean {
  return tools.some((tool) => {
    const address = tool ? URL.parse(tool) : null;
    if (!address || !/^https?:$/.test(address.protocol) || address.username || address.password) return false;
    const base = address.pathname.endsWith('/') ? address.pathname : `${address.pathname}/`;
    return link.origin === address.origin && (link.pathname === address.pathname || link.pathname.startsWith(base));
  });
}

/** The API's address without a trailing slash, or null when it is not an http(s) address. */
function apiRoot(apiBase: string | null): string | null {
  const base = apiBase ? URL.parse(apiBase) : null;
  if (!base || !/^https?:$/.test(base.protocol) || base.username || base.password) return null;
  return `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
}

/**
 * The path of an app:// address as Chromium will load it. app is registered as a standard scheme, so Chromium
 * reads `\` as `/` and then resolves dot segments; Node's parser treats app: as an opaque scheme and does
 * neither, so `app://renderer/cdn/..\..\setup` would look like media here and be `/setup` there. Decided on the
 * path as it will be opened: backslashes made slashes, dot segments (also %2e%2e) resolved by a special scheme.
 */
function appPath(link: URL): URL {
  const slashed = link.pathname.replaceAll('\\', '/');
  return new URL(`${slashed}${link.search}${link.hash}`, 'https://app.invalid');
}

export function decideExternalLink(url: string, context: ExternalLinkContext): ExternalLinkDecision {
  const link = URL.parse(url);
  if (!link || link.username || link.password) return { action: 'refuse' };
  if (isConfiguredTool(link, context.tools)) return { action: 'open', url: link.href };
  const api = apiRoot(context.apiBase);
  const appOrigin = URL.parse(context.appOrigin);
  if (appOrigin && link.protocol === appOrigin.protocol && link.host === appOrigin.host) {
    const path = appPath(link);
    if (path.pathname.startsWith(MEDIA_PATH)) return api ? { action: 'open', url: `${api}${path.pathname}${path.search}` } : { action: 'refuse' };
    return { action: 'app-window', path: `${path.pathname}${path.search}${path.hash}` };
  }
  if (api && /^https?:$/.test(link.protocol) && `${link.origin}${link.pathname}`.startsWith(`${api}${MEDIA_PATH}`)) {
    return { action: 'open', url: link.href };
  }
  return link.protocol === 'https:' ? { action: 'ask', url: link.href } : { action: 'refuse' };
}

/** Decides, asks when needed, opens: the whole flow with the dialog, the shell and the app's windows passed in. */
export async function openExternalLink(
  url: string,
  context: ExternalLinkContext,
  io: { confirm(url: string): Promise<boolean>; open(url: string): Promise<void>; openAppWindow(path: string): void },
): Promise<'opened' | 'declined' | 'refused' | 'app-window'> {
  const decision = decideExternalLink(url, context);
  if (decision.action === 'refuse') return 'refused';
  if (decision.action === 'app-window') {
    io.openAppWindow(decision.path);
    return 'app-window';
  }
  if (decision.action === 'ask' && !(await io.confirm(decision.url))) return 'declined';
  await io.open(decision.url);
  return 'opened';
}
