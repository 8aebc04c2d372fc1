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
 * - in-app routes (`/adverts/edit/5` from the targets grid): not for the browser, refused;
 * - links written by people (an advert's source, the links of a briefing): any other https link, opened only
 *   once the user confirmed it in a native dialog showing the address.
 * Everything else is refused: http outside the tools, mailto: (some mail clients take attachments from it),
 * file:, javascript:, data:, custom schemes, and links carrying credentials.
 */
export type ExternalLinkDecision = { action: 'open'; url: string } | { action: 'ask'; url: string } | { action: 'refuse' };

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

export function decideExternalLink(url: string, context: ExternalLinkContext): ExternalLinkDecision {
  const link = URL.parse(url);
  if (!link || link.username || link.password) return { action: 'refuse' };
  if (isConfiguredTool(link, context.tools)) return { action: 'open', url: link.href };
  const api = apiRoot(context.apiBase);
  const appOrigin = URL.parse(context.appOrigin);
  if (appOrigin && link.protocol === appOrigin.protocol && link.host === appOrigin.host) {
    // Decided on the URL as it will be opened: an http(s) parser also reads a backslash as a slash and resolves
    // the dot segments it makes (..\..\setup), where app:// does not (WHATWG URL, special schemes).
    const opened = api ? URL.parse(`${api}${link.pathname}${link.search}`) : null;
    if (opened && `${opened.origin}${opened.pathname}`.startsWith(`${api}${MEDIA_PATH}`)) return { action: 'open', url: opened.href };
    return { action: 'refuse' };
  }
  if (api && /^https?:$/.test(link.protocol) && `${link.origin}${link.pathname}`.startsWith(`${api}${MEDIA_PATH}`)) {
    return { action: 'open', url: link.href };
  }
  return link.protocol === 'https:' ? { action: 'ask', url: link.href } : { action: 'refuse' };
}

/** Decides, asks when needed, opens: the whole flow with the dialog and the shell passed in. */
export async function openExternalLink(
  url: string,
  context: ExternalLinkContext,
  io: { confirm(url: string): Promise<boolean>; open(url: string): Promise<void> },
): Promise<'opened' | 'declined' | 'refused'> {
  const decision = decideExternalLink(url, context);
  if (decision.action === 'refuse') return 'refused';
  if (decision.action === 'ask' && !(await io.confirm(decision.url))) return 'declined';
  await io.open(decision.url);
  return 'opened';
}
