/**
 * An HTTP Retry-After header (RFC 9110 §10.2.3: seconds, or an HTTP date) as milliseconds from `now`; undefined
 * when absent or unreadable. Read by main's API client and by the push job for FCM's answers.
 */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
