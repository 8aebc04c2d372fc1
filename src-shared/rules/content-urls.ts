import { DEEPLINK_TARGETS } from './deeplink';

/**
 * The addresses an advert or article holds (docs/content.md, address fields): a field that takes an address takes only a web
 * address (http or https, with a host) — never 'pas une url', 'javascript:…' or 'data:…'. Media fields also take
 * the root-relative `/cdn/...` paths the product's storage answers; link fields (where the deeplink generator's
 * output is pasted, §2.7) also take a deeplink `{scheme}://{target}…` to one of the generator's targets. An empty
 * value is no address and is left to the required-field rules.
 */

export type UrlKind = 'web' | 'media' | 'link';

/** http(s) with a host, no blank inside. */
export function isWebUrl(value: string): boolean {
  if (/\s/.test(value) || !/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** A path of the product's own storage: `/cdn/...`, root-relative (not `//host`, which is another site). */
export const isRootRelativePath = (value: string) => /^\/[^/\\\s][^\s\\]*$/.test(value);

/** Schemes that are never the app's (web, scripts, files, other protocols), whatever its target looks like. */
const NOT_APP_SCHEMES: readonly string[] = [
  'http',
  'https',
  'javascript',
  'data',
  'file',
  'vbscript',
  'ftp',
  'ftps',
  'sftp',
  'ws',
  'wss',
  'blob',
  'about',
  'mailto',
  'tel',
];

/** A deeplink of the generator (§2.7): a scheme of letters, then `://` and one of its targets. */
export function isDeeplink(value: string): boolean {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([a-z-]+)([/?][^\s]*)?$/i.exec(value);
  if (!match) return false;
  const scheme = match[1].toLowerCase();
  if (NOT_APP_SCHEMES.includes(scheme)) return false;
  return (DEEPLINK_TARGETS as readonly string[]).includes(match[2]);
}

/** Whether `value` (trimmed) is an address a field of that kind may hold; '' is (no address). */
export function isContentUrl(value: string | null | undefined, kind: UrlKind): boolean {
  const text = (value ?? '').trim();
  if (text === '') return true;
  if (isWebUrl(text)) return true;
  if (kind === 'media') return isRootRelativePath(text);
  if (kind === 'link') return isDeeplink(text);
  return false;
}

/**
 * The address fields of the editor, by their draft path, and what each may hold. `images` is a list (each line
 * checked); story screens hold theirs under `story.screens.N.*`.
 */
export const CONTENT_URL_FIELDS: Readonly<Record<string, UrlKind>> = {
  logo: 'media',
  image: 'media',
  images: 'media',
  imageSmall: 'media',
  video: 'media',
  source: 'link',
  bannerLink: 'link',
  pixelTrackingUrl: 'web',
  'sharing.sharingLink': 'link',
  'quiz.link': 'link',
  'story.logo': 'media',
  'story.screens.logo': 'media',
  'story.screens.illustration': 'media',
  'story.screens.link': 'link',
};

/** The value at a dotted path ('story.logo'); the publication rule reads its fields with it too. */
export function valueAt(item: unknown, path: string): unknown {
  let value = item;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** The address fields of a draft that hold something else, by their editor path (`story.screens` for a screen's). */
export function invalidUrlFields(item: unknown): string[] {
  const invalid: string[] = [];
  for (const [path, kind] of Object.entries(CONTENT_URL_FIELDS)) {
    if (path.startsWith('story.screens.')) {
      const screens = valueAt(item, 'story.screens');
      const key = path.slice('story.screens.'.length);
      if (
        Array.isArray(screens) &&
        screens.some((screen) => !isContentUrl(valueAt(screen, key) as string | null, kind)) &&
        !invalid.includes('story.screens')
      )
        invalid.push('story.screens');
      continue;
    }
    const value = valueAt(item, path);
    const values = Array.isArray(value) ? value : [value];
    if (values.some((entry) => typeof entry === 'string' && !isContentUrl(entry, kind))) invalid.push(path);
  }
  return invalid;
}
