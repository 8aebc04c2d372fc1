import { readFile } from 'node:fs/promises';
import { importPKCS8, SignJWT } from 'jose';
import { request } from 'undici';
import { retryAfterMs } from '@shared/rules/retry-after';
import { ProviderRetryLater, type Delivery, type PushMessage, type PushProvider } from './provider';

/** A Google service account, as its JSON key file holds it. */
export interface ServiceAccount {
  project_id: string;
  client_email: string;
  private_key: string;
  token_uri?: string;
}

export interface FcmOptions {
  account: ServiceAccount;
  /** https://fcm.googleapis.com unless set (tests point it at a local fake). */
  endpoint?: string;
  /** Requests in flight at once: HTTP v1 takes one message per request, so a batch goes out as parallel requests. */
  concurrency?: number;
}

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
/** FCM error codes that mean the token will never work again (the token is removed from its user). */
const DEAD_TOKEN = new Set(['UNREGISTERED', 'INVALID_ARGUMENT', 'NOT_FOUND']);

/**
 * Firebase Cloud Messaging HTTP v1 (docs/push.md, `PUSH_PROVIDER=fcm`): an OAuth access token from the service account
 * (a JWT signed with its key, exchanged at its token_uri, kept until shortly before it expires), then one
 * `POST /v1/projects/{project}/messages:send` per device, `concurrency` at a time. The legacy multicast and batch
 * endpoints are gone; parallel requests over one HTTP/1.1 pool are what FCM allows.
 */
export function fcmProvider(options: FcmOptions): PushProvider {
  const endpoint = (options.endpoint ?? 'https://fcm.googleapis.com').replace(/\/$/, '');
  const tokenUri = options.account.token_uri ?? 'https://oauth2.googleapis.com/token';
  let cached: { value: string; until: number } | undefined;

  async function accessToken(): Promise<string> {
    if (cached && cached.until > Date.now()) return cached.value;
    const key = await importPKCS8(options.account.private_key, 'RS256');
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(options.account.client_email)
      .setAudience(tokenUri)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(key);
    const answer = await request(tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
    });
    const json = (await answer.body.json()) as { access_token?: string; expires_in?: number };
    if (answer.statusCode !== 200 || !json.access_token) throw new Error(`FCM: no access token (${answer.statusCode})`);
    cached = { value: json.access_token, until: Date.now() + ((json.expires_in ?? 3600) - 60) * 1000 };
    return cached.value;
  }

  async function sendOne(bearer: string, message: PushMessage, token: string): Promise<'sent' | 'dead' | string> {
    const { title, body, navigation, customId } = message.notification;
    const answer = await request(`${endpoint}/v1/projects/${encodeURIComponent(options.account.project_id)}/messages:send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        message: { token, notification: { title, body }, data: { navigation, customId, campaignId: String(message.campaignId) } },
      }),
    });
    const text = await answer.body.text();
    if (answer.statusCode === 200) return 'sent';
    let code = '';
    try {
      const parsed = JSON.parse(text) as { error?: { status?: string; details?: { errorCode?: string }[] } };
      code = parsed.error?.details?.find((detail) => detail.errorCode)?.errorCode ?? parsed.error?.status ?? '';
    } catch {
      // Not JSON: the status says enough.
    }
    if (DEAD_TOKEN.has(code) || answer.statusCode === 404) return 'dead';
    // Quota and server errors: the batch is tried again later, as a whole (already recorded users are skipped).
    if (answer.statusCode === 429 || answer.statusCode >= 500) {
      const message = `FCM ${answer.statusCode} ${code}`.trim();
      const wait = retryAfterMs(answer.headers['retry-after']);
      throw wait === undefined ? new Error(message) : new ProviderRetryLater(message, wait);
    }
    return `${answer.statusCode} ${code}`.trim();
  }

  return {
    name: 'fcm',
    async send(messages) {
      const bearer = await accessToken();
      const jobs = messages.flatMap((message) => message.tokens.map((device) => ({ message, token: device.token })));
      const outcomes = new Map<string, string>();
      let next = 0;
      let failed = false;
      const worker = async () => {
        while (next < jobs.length && !failed) {
          const job = jobs[next++];
          try {
            outcomes.set(job.token, await sendOne(bearer, job.message, job.token));
          } catch (error) {
            // The batch is tried again as a whole: the other workers take no further message.
            failed = true;
            throw error;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 50, jobs.length) }, worker));
      return messages.map((message): Delivery => {
        if (!message.tokens.length) return { userId: message.userId, status: 'no-token', invalidTokens: [] };
        const results = message.tokens.map((device) => ({ token: device.token, outcome: outcomes.get(device.token)! }));
        const invalidTokens = results.filter((result) => result.outcome === 'dead').map((result) => result.token);
        const delivered = results.some((result) => result.outcome === 'sent');
        const problems = results
          .filter((result) => result.outcome !== 'sent')
          .map((result) => (result.outcome === 'dead' ? 'invalid token' : result.outcome));
        return { userId: message.userId, status: delivered ? 'sent' : 'failed', detail: problems.join(', ') || undefined, invalidTokens };
      });
    },
  };
}

/**
 * The provider chosen by the environment: `PUSH_PROVIDER=fcm` reads the service account from the usual Google
 * variables (GOOGLE_APPLICATION_CREDENTIALS, the key file's path) and FCM_ENDPOINT (tests); anything else is the outbox.
 */
export async function fcmFromEnvironment(env: NodeJS.ProcessEnv): Promise<PushProvider> {
  const path = env.GOOGLE_APPLICATION_CREDENTIALS;
  if (!path) throw new Error('PUSH_PROVIDER=fcm needs GOOGLE_APPLICATION_CREDENTIALS (the service account key file)');
  const account = JSON.parse(await readFile(path, 'utf8')) as ServiceAccount;
  if (env.GOOGLE_CLOUD_PROJECT) account.project_id = env.GOOGLE_CLOUD_PROJECT;
  return fcmProvider({ account, endpoint: env.FCM_ENDPOINT });
}
