import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { demoAccount, type WebApp } from './fixtures';

/** What the offline and conflict tests share (docs/architecture.md, "Versions and conflicts"). */

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Stops the embedded API as a crash would leave it (no answer on its port), then starts it again on that port. */
export async function killApi(app: WebApp) {
  const running = app.host.embedded!;
  const port = Number(new URL(running.url).port);
  await running.close();
  return async () => {
    const { startServer } = await import('../../src-server/server');
    const restarted = await startServer({
      port,
      dataDir: join(app.dataDir, 'pglite'),
      templateDir: join(root, '.data/pglite-template'),
      demo: true,
      demoPopulation: false,
      logger: pino({ level: 'silent' }),
    });
    // The host closes its embedded server at the end: the one running now.
    running.close = () => restarted.close();
  };
}

/** The API as the demo CSM (projects are written by CSMs): the other person changing a record meanwhile. */
export async function csmApi(app: WebApp) {
  const { email, password } = demoAccount('CSM');
  const signedIn = await fetch(`${app.apiUrl}/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password }),
  });
  const session = (await signedIn.json()) as { accessToken: { value: string }; userId: number };
  const call = async (method: string, path: string, body?: unknown): Promise<any> => {
    const response = await fetch(`${app.apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${session.accessToken.value}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  return { call, userId: session.userId };
}
