import type { Handlers } from '../../../operations';
import type { urlParser } from '../url-parse';

export type UrlHandlers = Pick<Handlers, 'url.parse'>;

/** The editor's pre-fill from a web page (docs/content.md, URL pre-fill). */
export function urlHandlers(urls: ReturnType<typeof urlParser>): UrlHandlers {
  return {
    // Authenticated access: an account is always there (0 would only share one slot among account-less callers).
    'url.parse': async ({ query, account }) => urls.parse(query.url, account?.id ?? 0),
  };
}
