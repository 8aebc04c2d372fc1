import { WORKPLACE_MESSAGES } from './messages/workplace';

/** What the first start's address field says as the user types, and what main checks again before any call. */
export type AddressCheck = { ok: true; url: string } | { ok: false; message: string };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * A team server's address: https, or plain http to this machine only (passwords and tokens never cross a network in
 * clear); no credentials in it. A bare name (backoffice.exemple.fr) means https. Answers it without its trailing slash.
 */
export function checkServerAddress(value: string): AddressCheck {
  const trimmed = value.trim();
  if (!trimmed) return { ok: false, message: WORKPLACE_MESSAGES.addressRequired };
  const url = URL.parse(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
  if (!url || !url.hostname || /\s/.test(trimmed)) return { ok: false, message: WORKPLACE_MESSAGES.addressInvalid };
  if (url.username || url.password) return { ok: false, message: WORKPLACE_MESSAGES.addressCredentials };
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)))
    return { ok: false, message: WORKPLACE_MESSAGES.addressNotHttps };
  if (url.search || url.hash) return { ok: false, message: WORKPLACE_MESSAGES.addressInvalid };
  return { ok: true, url: url.href.replace(/\/$/, '') };
}
