import { ADVERT_SCREEN_MESSAGES as M } from '../messages/advert-screens';

/**
 * The deeplink generator (adverts-articles.md §2.7): links into the mobile app, scheme '{address}' (the app's
 * address, a setting of the generator). The spec names the targets and the open modes but not the link layout;
 * this one is ours: `{scheme}://{target}{firstParams}{secondParams}` where firstParams is the path (the item id
 * or the app part and its section) and secondParams the query (search term, url, open mode).
 */

export const DEFAULT_DEEPLINK_SCHEME = 'app';

/** Items opened by id. */
export const ITEM_TARGETS = ['story', 'ad', 'content', 'article', 'document-open'] as const;
/** Parts of the app, opened at an optional section. */
export const APP_PARTS = [
  'drive',
  'timeline',
  'notifications',
  'applications',
  'medics',
  'tasks',
  'universe',
  'db-download',
  'expert',
  'user-profile',
  'viewer',
] as const;
export const DEEPLINK_TARGETS = ['global-search', ...ITEM_TARGETS, 'application', ...APP_PARTS] as const;
export type DeeplinkTarget = (typeof DEEPLINK_TARGETS)[number];

/** Application open modes; INTERNAL_WEBVIEW by default (§2.7). */
export const OPEN_MODES = ['INTERNAL_WEBVIEW', 'INTERNAL_BROWSER', 'EXTERNAL_BROWSER'] as const;
export type OpenMode = (typeof OPEN_MODES)[number];

export interface DeeplinkForm {
  scheme: string;
  target: DeeplinkTarget;
  /** Item id (story, ad, content, article, document-open) or section of an app part. */
  id: string;
  /** global-search term. */
  term: string;
  /** application: the page to open. */
  url: string;
  openMode: OpenMode;
  /** Encode the url parameter; on by default (§2.7). */
  encode: boolean;
}

export const emptyDeeplinkForm = (scheme = DEFAULT_DEEPLINK_SCHEME): DeeplinkForm => ({
  scheme,
  target: 'application',
  id: '',
  term: '',
  url: '',
  openMode: 'INTERNAL_WEBVIEW',
  encode: true,
});

/** The entity the generator produces (§2.7). */
export interface Deeplink {
  url: string;
  firstParams: string;
  secondParams: string;
}

/** Id and section values: letters, digits, '-' and '_' only (§5). */
export const isDeeplinkId = (value: string) => /^[A-Za-z0-9_-]+$/.test(value);

/** URLs are checked by a pattern (§5): http(s), a host with a dot or localhost, an optional port and path. */
export const isDeeplinkUrl = (value: string) => /^https?:\/\/(localhost|[\w-]+(\.[\w-]+)+)(:\d{1,5})?([/?#][^\s]*)?$/i.test(value.trim());

export const isItemTarget = (target: DeeplinkTarget) => (ITEM_TARGETS as readonly string[]).includes(target);
export const isAppPart = (target: DeeplinkTarget) => (APP_PARTS as readonly string[]).includes(target);

/** The form's errors by field, with the spec's messages; empty when Créer may be enabled. */
export function deeplinkErrors(form: DeeplinkForm): Partial<Record<'scheme' | 'id' | 'term' | 'url', string>> {
  const errors: Partial<Record<'scheme' | 'id' | 'term' | 'url', string>> = {};
  if (!/^[a-z][a-z0-9+.-]*$/i.test(form.scheme)) errors.scheme = M.deeplinkSchemeInvalid;
  if (isItemTarget(form.target) && !isDeeplinkId(form.id)) errors.id = M.deeplinkIdInvalid;
  if (isAppPart(form.target) && form.id !== '' && !isDeeplinkId(form.id)) errors.id = M.deeplinkIdInvalid;
  if (form.target === 'global-search' && form.term.trim() === '') errors.term = M.deeplinkTermRequired;
  if (form.target === 'application' && !isDeeplinkUrl(form.url)) errors.url = M.deeplinkUrlInvalid;
  return errors;
}

export const isDeeplinkValid = (form: DeeplinkForm) => Object.keys(deeplinkErrors(form)).length === 0;

/** Builds the link; null while the form is invalid. */
export function buildDeeplink(form: DeeplinkForm): Deeplink | null {
  if (!isDeeplinkValid(form)) return null;
  let firstParams = '';
  let secondParams = '';
  if (isItemTarget(form.target)) firstParams = `/${form.id}`;
  else if (isAppPart(form.target)) firstParams = form.id ? `/${form.id}` : '';
  else if (form.target === 'global-search') secondParams = `?term=${encodeURIComponent(form.term.trim())}`;
  else {
    const url = form.url.trim();
    secondParams = `?url=${form.encode ? encodeURIComponent(url) : url}&openMode=${form.openMode}`;
  }
  return { url: `${form.scheme}://${form.target}${firstParams}${secondParams}`, firstParams, secondParams };
}

/** App search (§2.7): from 3 characters, debounced 300 ms. */
export const APP_SEARCH_MIN_CHARS = 3;
export const APP_SEARCH_DEBOUNCE_MS = 300;
export const isAppSearchTerm = (term: string) => term.trim().length >= APP_SEARCH_MIN_CHARS;
