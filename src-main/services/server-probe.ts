import { API_PRODUCT, SUPPORTED_API_VERSIONS } from '@shared/api-identity';
import { WORKPLACE_MESSAGES } from '@shared/messages';
import { checkServerAddress, type AddressCheck } from '@shared/server-address';

/** How long the check of a team server waits for its answer. */
const PROBE_TIMEOUT_MS = 10_000;

/** Network errors by their code (undici's cause), each said in French for what the user can do about it. */
const UNKNOWN_HOST = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL']);
const CERTIFICATE = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_TLS|ERR_SSL|HOSTNAME_MISMATCH/;

function networkFailure(error: unknown, hostname: string): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (error as { code?: string }).code ?? '';
  if (UNKNOWN_HOST.has(code)) return WORKPLACE_MESSAGES.unknownHost(hostname);
  if (CERTIFICATE.test(code) || /certificate/i.test(cause?.message ?? '')) return WORKPLACE_MESSAGES.certificateRefused;
  return WORKPLACE_MESSAGES.noAnswer;
}

/** The identity a /health answer gives, or why it is not this product's API in a version this app speaks. */
function identityFailure(body: unknown): string | null {
  const health = body as { product?: unknown; apiVersion?: unknown } | null;
  if (!health || health.product !== API_PRODUCT || typeof health.apiVersion !== 'number') return WORKPLACE_MESSAGES.notThisProduct;
  if (health.apiVersion < SUPPORTED_API_VERSIONS.min) return WORKPLACE_MESSAGES.versionTooOld(health.apiVersion);
  if (health.apiVersion > SUPPORTED_API_VERSIONS.max) return WORKPLACE_MESSAGES.versionTooNew(health.apiVersion);
  return null;
}

/**
 * Checks a team server's address before the app connects to it: its form (https, http to this machine only), then
 * the server itself: it answers, with a certificate the system trusts, as this product's API (GET /health names
 * it), in an API version this app speaks. Each failure is one French sentence.
 */
export async function probeTeamServer(address: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<AddressCheck> {
  const checked = checkServerAddress(address);
  if (!checked.ok) return checked;
  const hostname = new URL(checked.url).hostname;
  let response: Response;
  try {
    // No redirect followed: the address the user typed is the one the app will call.
    response = await fetch(`${checked.url}/health`, {
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
      headers: { accept: 'application/json' },
    });
  } catch (error) {
    return { ok: false, message: networkFailure(error, hostname) };
  }
  const body: unknown = response.ok ? await response.json().catch(() => null) : await response.body?.cancel().then(() => null);
  const problem = identityFailure(body ?? null);
  return problem ? { ok: false, message: problem } : checked;
}
